import { Injectable, Module } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { McpModule, McpTool } from 'nestjs-mcp';

/**
 * Markup that runs if a page writes it as HTML: each piece sets `window.__pwned` to its own
 * number, so a test that finds the variable set knows which text got through.
 */
export const HOSTILE = {
  title: '<img src=x onerror=window.__pwned=1>',
  description: '<script>window.__pwned=2</script><b>bold?</b>',
  resultText: '<img src=x onerror="window.__pwned=3"><script>window.__pwned=4</script>',
  structured: '<svg onload=window.__pwned=5></svg>',
  link: 'javascript:window.__pwned=6',
  argument: '<iframe srcdoc="<script>parent.__pwned=7</script>"></iframe>',
  /** The server's title: written by the server into the page's <title> and its config JSON. */
  serverTitle: '</script><script>window.__pwned=8</script><img src=x onerror=window.__pwned=9>',
} as const;

/** A description of some 200 KB, one line of many words: it must not freeze nor break the page. */
export const HUGE_TEXT = `Huge description start. ${'lorem ipsum dolor sit amet '.repeat(8_000)}Huge description end.`;

export class HostileArgs {
  @IsOptional()
  @IsString()
  note?: string;
}

@Injectable()
export class HostileTools {
  @McpTool({
    name: 'hostile_echo',
    title: HOSTILE.title,
    description: `${HOSTILE.description} ${HUGE_TEXT}`,
    annotations: { readOnlyHint: true },
  })
  hostileEcho(args: HostileArgs) {
    return {
      content: [
        { type: 'text', text: HOSTILE.resultText },
        { type: 'text', text: `note: ${args.note ?? ''}` },
        { type: 'resource_link', uri: HOSTILE.link, name: '<b>link</b>' },
      ],
      structuredContent: { html: HOSTILE.structured, huge: HUGE_TEXT },
    };
  }
}

/** An MCP server whose one tool is written by an attacker, with the explorer on. */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'hostile',
      version: '1.0.0',
      instructions: `${HOSTILE.title} instructions`,
      http: { path: 'mcp' },
      discovery: { name: 'com.example/hostile', title: HOSTILE.serverTitle },
      explorer: true,
    }),
  ],
  providers: [HostileTools],
})
export class HostileFixtureModule {}
