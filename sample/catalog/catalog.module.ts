import { Module } from '@nestjs/common';
import { CatalogController } from './catalog.controller.js';
import { CatalogContentService } from './catalog-content.service.js';
import { CatalogIndexService } from './catalog-index.service.js';
import { CatalogService } from './catalog.service.js';

@Module({
  controllers: [CatalogController],
  providers: [CatalogService, CatalogContentService, CatalogIndexService],
  exports: [CatalogService],
})
export class CatalogModule {}
