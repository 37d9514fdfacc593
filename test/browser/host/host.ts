/**
 * The test host's page script, bundled by vite when the browser test starts. It does what a
 * chat client does with a tool that has a view (MCP Apps): calls the tool with an MCP client
 * that declares the extension, reads the view its `_meta.ui.resourceUri` names, renders it in a
 * sandboxed iframe under the CSP of `_meta.ui.csp`, and connects an AppBridge, which gives the
 * view the tool's input and result and forwards the view's tool calls to the client.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  AppBridge,
  buildAllowAttribute,
  getToolUiResourceUri,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  type McpUiResourceMeta,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { viewCsp, withCsp } from './view-csp.js';

/** The extension's id; ext-apps exports it from its server entry only, which is not for browsers. */
const UI_EXTENSION = 'io.modelcontextprotocol/ui';
const HOST = { name: 'nestjs-mcp-test-host', version: '1.0.0' };

export interface RenderRequest {
  /** The bearer token the client sends: whose rights the view's calls have. */
  token: string;
  /** The protocol revision the client pins. */
  revision: '2026-07-28' | '2025-11-25';
  tool: string;
  arguments: Record<string, unknown>;
}

export interface Rendered {
  resourceUri: string;
  mimeType: string | undefined;
  /** The `_meta.ui` of the read content, as the server sent it. */
  ui: McpUiResourceMeta | undefined;
  /** The policy the iframe got. */
  csp: string;
}

declare global {
  interface Window {
    /** Renders a tool's view; the test calls it with page.evaluate(). */
    renderToolView(request: RenderRequest): Promise<Rendered>;
  }
}

window.renderToolView = async (request) => {
  const client = new Client(HOST, {
    capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    // 2026-07-28 declares the extension in each request's `_meta`, 2025-11-25 in `initialize`.
    versionNegotiation: {
      mode: request.revision === '2025-11-25' ? 'legacy' : { pin: request.revision },
    },
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', location.href), {
      requestInit: { headers: { Authorization: `Bearer ${request.token}` } },
    }),
  );
  const { tools } = await client.listTools();
  const tool = tools.find((candidate) => candidate.name === request.tool);
  const resourceUri = tool && getToolUiResourceUri(tool);
  if (!resourceUri) throw new Error(`${request.tool} is not listed with a view`);

  const { contents } = await client.readResource({ uri: resourceUri });
  const [view] = contents;
  if (!view || !('text' in view)) throw new Error(`${resourceUri} has no HTML text`);
  const ui = (view._meta as { ui?: McpUiResourceMeta } | undefined)?.ui;
  const csp = viewCsp(ui?.csp);

  // The bridge listens before the view loads: the view starts its handshake at once.
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  const allow = buildAllowAttribute(ui?.permissions);
  if (allow) iframe.setAttribute('allow', allow);
  iframe.title = resourceUri;
  document.body.append(iframe);
  const bridge = new AppBridge(
    client,
    HOST,
    { serverTools: {}, logging: {} },
    {
      hostContext: { theme: 'light', locale: 'en', displayMode: 'inline' },
    },
  );
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = withCsp(view.text, csp);
  await initialized;

  // What a host does once the model called the tool: the view gets the input, then the result.
  const result = await client.callTool({ name: request.tool, arguments: request.arguments });
  await bridge.sendToolInput({ arguments: request.arguments });
  await bridge.sendToolResult(result as Parameters<AppBridge['sendToolResult']>[0]);
  return { resourceUri, mimeType: view.mimeType, ui, csp };
};
