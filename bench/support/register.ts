import { register } from 'node:module';

// Loaded with `node --import` before a bench process imports `nestjs-mcp`.
register('./resolve-hook.js', import.meta.url);
