/**
 * Sends every request the docs show to the sample app and compares the documented output
 * with the real answer.
 *
 * A request is a `sh` block marked `<!-- request -->` holding one `curl` command (its
 * method, headers and `-d` body are read from the command line, see documented-request.ts);
 * the next marked block, `<!-- response -->`, is what curl prints. The comparison is exact
 * except where the page elides (`"..."`, a text ending in `...`, a header line `...`) and
 * for the headers in VOLATILE_HEADERS (Date, ETag, Keep-Alive, Connection), whose values
 * are never compared. The documented URL must be the sample's `http://127.0.0.1:3000`; the
 * test sends to the port the app got instead.
 *
 * Each Markdown file gets a fresh sample app and its requests run in page order, so a page
 * may show a request that changes the catalog and then one that sees the change.
 */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { documentationFiles, markedBlocks, type MarkedBlock } from '../support/readme-blocks.js';
import { outputDifferences, parseCurl, send } from './documented-request.js';

const SAMPLE_ORIGIN = `http://${SAMPLE_DEFAULTS.host}:${SAMPLE_DEFAULTS.port}`;

interface Exchange {
  request: MarkedBlock;
  response: MarkedBlock;
}

/** Pairs each `request` block with the `response` block that follows it. */
function exchangesOf(file: string): Exchange[] {
  const blocks = markedBlocks(file).filter(
    (b) => b.marker === 'request' || b.marker === 'response',
  );
  const pairs: Exchange[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const request = blocks[i]!;
    const response = blocks[i + 1];
    if (request.marker !== 'request' || response?.marker !== 'response') {
      throw new Error(
        `${file}:${request.line}: a <!-- request --> block needs a <!-- response --> block after it`,
      );
    }
    pairs.push({ request, response });
    i++;
  }
  return pairs;
}

const pages = documentationFiles()
  .map((file) => ({ file, exchanges: exchangesOf(file) }))
  .filter((page) => page.exchanges.length > 0);

it('finds documented requests', () => {
  // docs/http.md shows both eras; a parser that found nothing would pass everything below.
  expect(pages.map((page) => page.file)).toContain('docs/http.md');
});

describe.each(pages)('the requests of $file', ({ file, exchanges }) => {
  let app: INestApplication;
  let origin: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    origin = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(() => app?.close());

  it.each(
    exchanges.map((exchange) => ({ ...exchange, where: `${file}:${exchange.request.line}` })),
  )('answers $where as documented', async ({ request, response, where }) => {
    const curl = parseCurl(request.code);
    expect(curl.url.origin, `${where} names the sample's address`).toBe(SAMPLE_ORIGIN);
    const answer = await send(curl, origin);
    const problems = outputDifferences(response.code, answer, curl.include);
    expect(problems, `${where}: the output documented at line ${response.line}`).toEqual([]);
  });
});
