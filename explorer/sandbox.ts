/**
 * The script of the sandbox page an MCP Apps view runs in (`<path>/view-sandbox`, in an iframe
 * with `sandbox="allow-scripts"`: an opaque origin, under the CSP the server built from the
 * view's `_meta.ui.csp`). It tells the explorer it listens, receives the view's HTML and writes
 * it as this document. The view's scripts then run here and talk to the explorer page directly
 * (`window.parent`), where ext-apps' AppBridge answers them: nothing is left to relay.
 */
const READY = 'ui/notifications/sandbox-proxy-ready';
const RESOURCE = 'ui/notifications/sandbox-resource-ready';

function onMessage(event: MessageEvent) {
  if (event.source !== window.parent) return;
  const message = event.data as { method?: string; params?: { html?: unknown } } | null;
  if (message?.method !== RESOURCE || typeof message.params?.html !== 'string') return;
  window.removeEventListener('message', onMessage);
  document.open();
  document.write(message.params.html);
  document.close();
}

window.addEventListener('message', onMessage);
window.parent.postMessage({ jsonrpc: '2.0', method: READY, params: {} }, '*');
