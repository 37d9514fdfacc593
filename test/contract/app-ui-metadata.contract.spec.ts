// MCP Apps metadata in the contract file: a tool's view (`_meta.ui.resourceUri` and the
// legacy `ui/resourceUri`) and visibility, and the view's `ui://` resource (its MIME type
// and `_meta.ui`), so that `nestjs-mcp contract --check` sees a tool change its view.
import { describe, expect, it } from 'vitest';
import { diffContracts } from '../../lib/contract/contract.diff.js';
import type { ContractListMethod } from '../../lib/contract/mcp-contract.interface.js';
import {
  assembleContract,
  describeServerContract,
} from '../../lib/contract/server-contract.builder.js';

const VIEW = 'ui://catalog/product-card';

/** The lists of a server whose `get_product` renders a view and `restock_product` is app-only. */
function lists(view = VIEW, visibility = ['app']) {
  return {
    'tools/list': [
      {
        name: 'get_product',
        inputSchema: { type: 'object' },
        _meta: { ui: { resourceUri: view }, 'ui/resourceUri': view, traceparent: '00-a-b-01' },
      },
      { name: 'restock_product', inputSchema: { type: 'object' }, _meta: { ui: { visibility } } },
    ],
    'resources/list': [
      {
        uri: VIEW,
        name: 'product-card',
        mimeType: 'text/html;profile=mcp-app',
        _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } },
      },
    ],
  } as Partial<Record<ContractListMethod, Record<string, unknown>[]>>;
}

async function contractOf(published: ReturnType<typeof lists>) {
  const described = await describeServerContract(
    { list: async (method) => structuredClone(published[method] ?? []) },
    { server: 'catalog' },
  );
  return assembleContract([described]);
}

describe('the contract of a server with MCP Apps views', () => {
  it("records the tools' view and visibility and the view resource, MIME type included", async () => {
    const [server] = (await contractOf(lists())).servers;
    expect(server!.tools).toEqual([
      {
        name: 'get_product',
        _meta: { ui: { resourceUri: VIEW }, 'ui/resourceUri': VIEW },
        inputSchema: { type: 'object' },
      },
      {
        name: 'restock_product',
        _meta: { ui: { visibility: ['app'] } },
        inputSchema: { type: 'object' },
      },
    ]);
    expect(server!.resources).toEqual([
      {
        uri: VIEW,
        _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } },
        mimeType: 'text/html;profile=mcp-app',
        name: 'product-card',
      },
    ]);
  });

  it('sees a tool that names another view, or whose visibility changed', async () => {
    const before = await contractOf(lists());
    const after = await contractOf(lists('ui://catalog/product-page', ['model', 'app']));
    expect(diffContracts(before, after).map(({ kind, pointer }) => `${kind} ${pointer}`)).toEqual([
      'changed /servers/catalog@anonymous/tools/get_product/_meta/ui/resourceUri',
      'changed /servers/catalog@anonymous/tools/get_product/_meta/ui~1resourceUri',
      'changed /servers/catalog@anonymous/tools/restock_product/_meta/ui/visibility/0',
      'added /servers/catalog@anonymous/tools/restock_product/_meta/ui/visibility/1',
    ]);
  });
});
