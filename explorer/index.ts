/**
 * The MCP explorer's page: reads the configuration the server embedded in the shell and
 * renders the explorer into `#app`. Everything the server sends is rendered as text.
 */
import { h, render } from 'preact';
import { ExplorerApp } from './src/explorer-app.js';
import { readExplorerConfig } from './src/explorer-config.js';
import './src/explorer.css';

const root = document.getElementById('app')!;
try {
  render(h(ExplorerApp, { config: readExplorerConfig(document) }), root);
} catch (error) {
  root.textContent = (error as Error).message;
}
