import { Module } from '@nestjs/common';
import { CatalogChanges } from './catalog-changes.js';
import { CatalogController } from './catalog.controller.js';
import { CatalogContentService } from './catalog-content.service.js';
import { CatalogIndexService } from './catalog-index.service.js';
import { CatalogService } from './catalog.service.js';

@Module({
  controllers: [CatalogController],
  providers: [CatalogService, CatalogChanges, CatalogContentService, CatalogIndexService],
  exports: [CatalogService],
})
export class CatalogModule {}
