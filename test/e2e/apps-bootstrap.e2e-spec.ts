/**
 * MCP Apps declarations a real Nest app refuses at bootstrap, each with a message that names
 * the tool, the view and the fix: an unreadable file, a view no tool shows, a tool showing
 * an unknown view, a view declared twice, a view URI another resource has, options MCP Apps
 * cannot use, and the extension declared by the app itself.
 */
import { Injectable } from '@nestjs/common';
import { fileURLToPath } from 'node:url';
import {
  McpAppView,
  McpConfigurationError,
  McpGroup,
  McpResource,
  McpTool,
  type McpModuleOptions,
} from 'nestjs-mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { viewFile } from '../fixtures/apps.fixture.js';
import { bootApp, bootError, closeApps } from '../discovery/discovery-boot.js';
import { captureLogs } from '../support/captured-logs.js';

captureLogs();
afterEach(closeApps);

const CARD = viewFile('product-card');

@Injectable()
class CardTool {
  @McpTool({ description: 'Shows a product.', app: { view: 'card' } })
  get_product() {
    return 'Kettle';
  }
}

const options = (views: Record<string, unknown>, more: Partial<McpModuleOptions> = {}) =>
  ({ name: 'shop', version: '1', http: false, apps: { views }, ...more }) as McpModuleOptions;

/** The bootstrap error, checked to be a configuration error. */
async function refused(providers: Function[], moduleOptions: McpModuleOptions): Promise<string> {
  const error = await bootError(providers as never[], { options: moduleOptions });
  expect(error).toBeInstanceOf(McpConfigurationError);
  return error.message;
}

describe('MCP Apps declarations refused at bootstrap', () => {
  it('boots with a file view a tool shows (the control case)', async () => {
    const { app } = await bootApp([CardTool], { options: options({ card: { file: CARD } }) });
    expect(app).toBeDefined();
  });

  it('a view file that does not exist', async () => {
    const missing = fileURLToPath(new URL('../fixtures/apps/no-such-view.html', import.meta.url));
    const message = await refused([CardTool], options({ card: { file: missing } }));
    expect(message).toBe(
      `The view "card" of the tool(s) "get_product" (the "apps.views" option) cannot be read ` +
        `from ${missing}: no such file. Build the view before starting the app (a single-file ` +
        `HTML bundle), and give its absolute path, such as ` +
        `fileURLToPath(new URL('../views/card.html', import.meta.url)).`,
    );
  });

  it('a view file that cannot be read (a directory)', async () => {
    const directory = fileURLToPath(new URL('../fixtures/apps/', import.meta.url));
    const message = await refused([CardTool], options({ card: { file: directory } }));
    expect(message).toContain(`The view "card" of the tool(s) "get_product"`);
    expect(message).toContain('EISDIR');
  });

  it('a view no tool shows', async () => {
    const message = await refused(
      [CardTool],
      options({ card: { file: CARD }, orphan: { file: CARD } }),
    );
    expect(message).toBe(
      `The view "orphan" (the "apps.views" option) is shown by no tool of the MCP server ` +
        `"shop": name it in a tool, @McpTool({ app: { view: 'orphan' } }), or remove it. A ` +
        `view is published only with the tools it belongs to, and guarded like them.`,
    );
  });

  it('an @McpAppView() no tool of its group shows', async () => {
    @McpGroup('admin')
    @Injectable()
    class AdminViews {
      @McpAppView('audit-log')
      auditLog() {
        return '<html></html>';
      }
    }
    const message = await refused([AdminViews], {
      name: 'admin',
      version: '1',
      http: false,
      group: 'admin',
    });
    expect(message).toContain(`The view "audit-log" (@McpAppView() on AdminViews.auditLog)`);
    expect(message).toContain(`@McpTool({ app: { view: 'audit-log' } })`);
  });

  it('a tool that shows an unknown view', async () => {
    const message = await refused([CardTool], options({}));
    expect(message).toBe(
      `The tool "get_product" (CardTool.get_product) shows the view "card", which the MCP ` +
        `server "shop" does not have (its views: none). Declare it in the "apps.views" option ` +
        `of that server ({ 'card': { file } }) or with @McpAppView('card') on a provider ` +
        `method of the tool's group, or fix the name in @McpTool({ app: { view } }).`,
    );
  });

  it('a view declared by the option and by a method', async () => {
    @Injectable()
    class CardView {
      @McpAppView('card')
      card() {
        return '<html></html>';
      }
    }
    const message = await refused([CardTool, CardView], options({ card: { file: CARD } }));
    expect(message).toBe(
      `The view "card" is declared twice, by the "apps.views" option and @McpAppView() on ` +
        `CardView.card: a view has one HTML source. Keep one of them, or rename the other.`,
    );
  });

  it('a view declared by two methods', async () => {
    @Injectable()
    class Views {
      @McpAppView('card')
      card() {
        return '<html></html>';
      }

      @McpAppView('card')
      cardAgain() {
        return '<html></html>';
      }
    }
    const message = await refused([CardTool, Views], options({}));
    expect(message).toContain(
      'by @McpAppView() on Views.card and @McpAppView() on Views.cardAgain',
    );
  });

  it('a view URI another resource has', async () => {
    @Injectable()
    class Pages {
      @McpResource({ uri: 'ui://shop/card', name: 'legacy_card' })
      legacyCard() {
        return '<html></html>';
      }
    }
    const message = await refused([CardTool, Pages], options({ card: { file: CARD } }));
    expect(message).toBe(
      `The view "card" of the tool(s) "get_product" is published at ui://shop/card, the URI ` +
        `of the resource "legacy_card": rename the view (in the tools' @McpTool({ app: { view } }) ` +
        `too), or give the resource another URI.`,
    );
  });

  it('view options MCP Apps cannot use, all at once', async () => {
    const message = await refused(
      [CardTool],
      options({
        card: { file: 'views/card.html', csp: { connectDomain: ['https://a.example'] } },
        'bad name': { file: CARD },
      }),
    );
    expect(message).toContain('"apps.views.card.file" must be the absolute path');
    expect(message).toContain('"apps.views.card.csp.connectDomain" is not a CSP setting');
    expect(message).toContain('The view name "bad name" of the "apps.views" option is not valid');
  });

  it('an @McpAppView() with options MCP Apps cannot use', async () => {
    @Injectable()
    class Views {
      @McpAppView('card', { permissions: { camera: true } } as never)
      card() {
        return '<html></html>';
      }
    }
    const message = await refused([CardTool, Views], options({}));
    expect(message).toContain('The options of @McpAppView() on Views.card are not valid');
    expect(message).toContain(`"@McpAppView('card').permissions.camera" is not a permission`);
  });

  it('a tool visibility MCP Apps does not define', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x', app: { visibility: ['user'] } } as never)
      restock() {}
    }
    const message = await refused([Tools], options({}));
    expect(message).toBe(
      `The "app" option of @McpTool() on Tools.restock has the visibility ["user"]: give ` +
        `'model', 'app' or both, once each. Write it as { view: 'product-card' }, or ` +
        `{ visibility: ['app'] } for a tool only a view calls.`,
    );
  });

  it('the UI extension declared by the app, which the library advertises itself', async () => {
    const message = await refused(
      [CardTool],
      options(
        { card: { file: CARD } },
        { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } },
      ),
    );
    expect(message).toContain(
      'The extension "io.modelcontextprotocol/ui" (the "extensions" option) is implemented by ' +
        'nestjs-mcp itself',
    );
  });
});
