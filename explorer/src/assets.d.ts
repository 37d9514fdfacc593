// Vite bundles the stylesheet the entry imports; TypeScript only needs to know it exists.
declare module '*.css';
