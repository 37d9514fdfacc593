/**
 * The product card: the view of get_product (docs/apps.md). The host renders it in a sandboxed
 * iframe and sends it the tool's result; "Restock" calls the app-only tool restock_product
 * through the host, which calls it on the server with the user's credentials, so the server's
 * guards decide, not this code.
 */
import { App } from '@modelcontextprotocol/ext-apps';
// Written by `nestjs-mcp app-types` from the tools' DTOs and declared outputs (docs/apps.md):
// a renamed field or a changed argument of get_product or restock_product fails this file's build.
import type { AppToolName, AppTools, GetProductResult } from '../app-tools.js';

/** How many units one click adds (restock_product takes 1 to 1000). */
export const RESTOCK_QUANTITY = 10;

/** What the card needs of a tool result (the shape of the SDK's `CallToolResult`). */
interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/** A tool's answer: its structured result, or the text that says why the call failed. */
type Answer<T> = { result: T } | { refusal: string };

const price = new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' });
const card = document.querySelector<HTMLElement>('.card')!;
const field = (name: string) => card.querySelector<HTMLElement>(`[data-field="${name}"]`)!;
const restock = card.querySelector<HTMLButtonElement>('[data-action="restock"]')!;
const refusal = card.querySelector<HTMLElement>('[role="alert"]')!;
let shown: GetProductResult | undefined;

/** Shows a product; the card keeps it to know which one "Restock" restocks. */
function render(product: GetProductResult): void {
  shown = product;
  field('sku').textContent = product.sku;
  field('name').textContent = product.name;
  field('price').textContent = price.format(product.price);
  field('stock').textContent = `${product.stock} in stock`;
  restock.textContent = `Restock ${RESTOCK_QUANTITY}`;
  restock.disabled = false;
  card.setAttribute('aria-busy', 'false');
}

/** Says why a call failed, leaving the product as it was shown. */
function refuse(message: string): void {
  refusal.textContent = message;
  refusal.hidden = false;
}

/** The text a tool result gives the model: the card shows it when the call was refused. */
const textOf = (result: ToolResult) =>
  (result.content ?? []).map((item) => item.text ?? '').join('\n') || 'The call failed.';

/**
 * Reads a result as the tool's `T`: the server checked its `structuredContent` against the
 * tool's declared output before sending it, and sends none with an error.
 */
function answerOf<T>(result: ToolResult): Answer<T> {
  if (result.isError || result.structuredContent === undefined) return { refusal: textOf(result) };
  return { result: result.structuredContent as T };
}

/** Shows the product of an answer, or why there is none. */
function show(answer: Answer<GetProductResult>): void {
  if ('result' in answer) render(answer.result);
  else refuse(answer.refusal);
}

const app = new App({ name: 'product-card', version: '1.0.0' }, {});

/** Calls a tool through the host, with the arguments and the result of that tool's types. */
async function callTool<K extends AppToolName>(
  name: K,
  args: AppTools[K]['arguments'],
): Promise<Answer<AppTools[K]['result']>> {
  return answerOf(await app.callServerTool({ name, arguments: args }));
}

// Set before connect(): the host may send the result as soon as the handshake ends. The card
// is get_product's view, so the result is get_product's.
app.ontoolresult = (result: ToolResult) => show(answerOf<GetProductResult>(result));

restock.addEventListener('click', async () => {
  if (!shown) return;
  restock.disabled = true;
  refusal.hidden = true;
  try {
    show(await callTool('restock_product', { id: shown.id, quantity: RESTOCK_QUANTITY }));
  } catch (error) {
    // A JSON-RPC error (the host refused, the server is unreachable): nothing changed either.
    refuse(error instanceof Error ? error.message : String(error));
  } finally {
    restock.disabled = false;
  }
});

// The bundle is a classic script (no top-level await); a failed handshake leaves the card saying so.
app.connect().catch((error: unknown) => refuse(`Cannot reach the host: ${String(error)}`));
