import { Module, ValidationPipe } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { McpModule } from 'nestjs-mcp';
import { BearerTokenGuard } from './auth/bearer-token.guard.js';
import { CatalogModule } from './catalog/catalog.module.js';
import { ToolAuditLog } from './catalog/tool-audit.log.js';

/** The route of the MCP endpoint: `http://127.0.0.1:3000/mcp`. */
export const MCP_PATH = 'mcp';

@Module({
  imports: [
    McpModule.forRoot({
      name: 'catalog',
      version: '1.0.0',
      instructions:
        'Tools for the product catalog of an online shop selling books, electronics, garden, ' +
        'kitchen and toy products. Use search_products to find products and their ids, then ' +
        'get_product for the details of one. Prices are in EUR. create_product and ' +
        'delete_product change the catalog and need the catalog.write scope (the admin token).',
      http: { path: MCP_PATH, guards: [BearerTokenGuard] },
    }),
    CatalogModule,
  ],
  providers: [
    ToolAuditLog,
    // The app's global validation, as most Nest apps have it. REST query strings need the
    // implicit conversion (`?limit=5` → 5). It also runs on tool arguments, after the
    // library's own DTO validation.
    {
      provide: APP_PIPE,
      useValue: new ValidationPipe({
        whitelist: true,
        forbidNonWhitelisted: true,
        transform: true,
        transformOptions: { enableImplicitConversion: true },
      }),
    },
  ],
})
export class AppModule {}
