/** The departments of the shop. The values are what clients send and receive. */
export enum ProductCategory {
  Books = 'books',
  Electronics = 'electronics',
  Garden = 'garden',
  Kitchen = 'kitchen',
  Toys = 'toys',
}

export interface Product {
  /** A UUID, assigned by the catalog. */
  id: string;
  /** The shop's stock-keeping unit: three capital letters, a dash, four digits (`KIT-4001`). */
  sku: string;
  name: string;
  description: string;
  category: ProductCategory;
  /** The unit price in EUR, VAT included. */
  price: number;
  /** Units on hand. */
  stock: number;
  tags: string[];
}

/** One page of search results. */
export interface ProductPage {
  /** How many products match, of which `items` holds the first ones. */
  total: number;
  items: Product[];
}
