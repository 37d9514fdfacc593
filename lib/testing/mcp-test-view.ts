import type { McpUiResourceMeta, McpUiToolVisibility } from '@modelcontextprotocol/ext-apps';
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { McpTestAnswer } from './mcp-test-answer.js';

/**
 * The MCP Apps view of a tool as a host gets it (`McpTestClient#readView()`): the URI the
 * tool lists, the HTML and the `_meta.ui` that `resources/read` answers, and what the
 * tool and the resource list say.
 * @publicApi
 */
export interface McpTestView {
  /** The tool whose view it is. */
  readonly tool: string;
  /** `_meta.ui.resourceUri` of the tool (`ui://<server>/<view>`). */
  readonly uri: string;
  /** The MIME type of the content read: `text/html;profile=mcp-app` for a view. */
  readonly mimeType?: string;
  /** The view's HTML document. */
  readonly html: string;
  /** `_meta.ui` of the content item read (`csp`, `permissions`, `domain`, `prefersBorder`); `{}` without. */
  readonly meta: McpUiResourceMeta;
  /** `_meta.ui` of the view's entry in `resources/list`; `undefined` when it is not listed to the caller. */
  readonly listedMeta?: McpUiResourceMeta;
  /** `_meta.ui.visibility` of the tool; `['model', 'app']` when it gives none (the default). */
  readonly visibility: McpUiToolVisibility[];
}

/** What the kit sends for `readView()`: each request, answered. */
export interface ViewRequests {
  readonly listTools: () => Promise<McpTestAnswer<{ tools: Array<Record<string, any>> }>>;
  readonly listResources: () => Promise<McpTestAnswer<{ resources: Array<Record<string, any>> }>>;
  readonly read: (uri: string) => Promise<McpTestAnswer>;
}

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const uiOf = (entry: unknown): Record<string, any> | undefined =>
  isObject(entry) && isObject(entry._meta) && isObject(entry._meta.ui) ? entry._meta.ui : undefined;

/**
 * Reads the view of `tool` as a host does: finds the tool in `tools/list`, reads its
 * `_meta.ui.resourceUri` (or the flat `ui/resourceUri`), then the resource. An error of a
 * request is the answer; a tool the caller does not see, or one without a view, is a mistake
 * of the test and throws.
 */
export async function readView(
  label: string,
  tool: string,
  requests: ViewRequests,
): Promise<McpTestAnswer<McpTestView>> {
  const listed = await requests.listTools();
  if (listed.error) return listed as McpTestAnswer<never>;
  const tools = listed.result?.tools ?? [];
  const entry = tools.find((candidate) => candidate.name === tool);
  if (!entry) {
    const names = JSON.stringify(tools.map((candidate) => candidate.name));
    throw new Error(
      `${label}: tools/list does not name "${tool}" for this caller (it lists ${names}).`,
    );
  }
  const uri = uiOf(entry)?.resourceUri ?? entry._meta?.[RESOURCE_URI_META_KEY];
  if (typeof uri !== 'string') {
    throw new Error(
      `${label}: the tool "${tool}" shows no view (no _meta.ui.resourceUri); give it ` +
        `@McpTool({ app: { view } }).`,
    );
  }
  const read = await requests.read(uri);
  if (read.error) return read as McpTestAnswer<never>;
  const resources = await requests.listResources();
  const listedView = resources.result?.resources.find((resource) => resource.uri === uri);
  const contents: unknown[] = Array.isArray(read.result?.contents) ? read.result.contents : [];
  const item = (contents.find((content) => isObject(content) && content.uri === uri) ??
    contents[0]) as Record<string, any> | undefined;
  const html =
    typeof item?.text === 'string'
      ? item.text
      : typeof item?.blob === 'string'
        ? Buffer.from(item.blob, 'base64').toString('utf8')
        : '';
  const view: McpTestView = {
    tool,
    uri,
    ...(typeof item?.mimeType === 'string' && { mimeType: item.mimeType }),
    html,
    meta: uiOf(item) ?? {},
    ...(listedView && { listedMeta: uiOf(listedView) ?? {} }),
    visibility: uiOf(entry)?.visibility ?? ['model', 'app'],
  };
  return { ...read, result: view };
}
