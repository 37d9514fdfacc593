import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  Module,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { IsInt, IsString, Max } from 'class-validator';
import {
  inputRequired,
  McpCompletion,
  McpContext,
  McpModule,
  McpPrompt,
  McpResource,
  McpTool,
  type McpCallContext,
  type McpModuleOptions,
} from 'nestjs-mcp';

/** The endpoint's guard: `Bearer reader` or `Bearer admin`, else 401. */
@Injectable()
export class TokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: any; user?: unknown }>();
    const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (token !== 'reader' && token !== 'admin') {
      throw new UnauthorizedException('A bearer token (reader or admin) is required');
    }
    request.user = { role: token };
    return true;
  }
}

/** A tool guard: only the admin sees and calls. */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.switchToHttp().getRequest<{ user?: { role?: string } }>().user?.role === 'admin';
  }
}

export class AddDto {
  @IsInt()
  @Max(1000)
  a!: number;

  @IsInt()
  b!: number;
}

export class TopicDto {
  @IsString()
  topic!: string;
}

export class TableParams {
  @IsInt()
  n!: number;
}

@Injectable()
export class CalculatorTools {
  @McpTool({ description: 'Adds two integers.' })
  add({ a, b }: AddDto) {
    return String(a + b);
  }

  @McpTool({ description: 'Adds two integers and returns the sum as structured content.' })
  sum({ a, b }: AddDto) {
    return { sum: a + b, terms: [a, b] };
  }

  @McpTool({ description: 'Resets the memory (admin only).' })
  @UseGuards(AdminGuard)
  reset() {
    return 'memory cleared';
  }

  @McpTool({ description: 'Counts to three, reporting progress and logging each step.' })
  async countToThree(@McpContext() ctx: McpCallContext) {
    for (let step = 1; step <= 3; step++) {
      await ctx.reportProgress(step, 3, `step ${step}`);
      await ctx.log('info', `counted ${step}`);
    }
    return 'three';
  }

  @McpTool({ description: 'Asks the user before clearing the history.' })
  clearHistory(@McpContext() ctx: McpCallContext) {
    const answer = ctx.acceptedInput<{ confirm: boolean }>('confirm');
    if (!answer) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Clear the history?',
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean' } },
              required: ['confirm'],
            },
          }),
        },
      });
    }
    return answer.confirm ? 'history cleared' : 'history kept';
  }

  @McpTool({ description: 'Asks the model for a name of a number.' })
  nameNumber(@McpContext() ctx: McpCallContext) {
    const answer = ctx.input('name');
    if (answer.kind !== 'sampling') {
      return inputRequired({
        inputRequests: {
          name: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Name the number 3.' } }],
            maxTokens: 10,
          }),
        },
      });
    }
    const content = answer.result.content as { type: string; text?: string };
    return `the model says: ${content.text}`;
  }

  @McpTool({ description: 'Says who calls, in which language.' })
  whoAmI(@McpContext() ctx: McpCallContext) {
    const request = ctx.httpRequest as {
      headers: Record<string, string>;
      user?: { role?: string };
    };
    return `${request.user?.role} in ${request.headers['accept-language'] ?? 'no language'}`;
  }

  @McpPrompt({ description: 'Explains a topic of arithmetic.' })
  explain({ topic }: TopicDto) {
    return `Explain ${topic} to a child.`;
  }

  @McpCompletion({ prompt: 'explain', argument: 'topic' })
  topics(prefix: string) {
    return ['fractions', 'factorials', 'primes'].filter((topic) => topic.startsWith(prefix));
  }

  @McpResource({
    uri: 'calc://constants/pi',
    description: 'The number pi.',
    mimeType: 'text/plain',
  })
  pi() {
    return '3.14159';
  }

  @McpResource({ uri: 'calc://tables/{n}', description: 'The multiplication table of n.' })
  table({ n }: TableParams) {
    return [1, 2, 3].map((k) => `${k} x ${n} = ${k * n}`).join('\n');
  }
}

/** The calculator's server: the token guard on the endpoint, pages of two entries. */
export function calculatorModule(options: Partial<McpModuleOptions> = {}) {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'calculator',
        version: '1.0.0',
        pageSize: 2,
        http: { guards: [TokenGuard], legacySessions: true },
        ...options,
      }),
    ],
    providers: [CalculatorTools, TokenGuard, AdminGuard],
  })
  class CalculatorModule {}
  return CalculatorModule;
}
