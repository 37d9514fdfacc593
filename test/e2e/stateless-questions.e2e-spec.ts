import { Injectable, Module } from '@nestjs/common';
import { inputRequired, McpModule, McpTool } from 'nestjs-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';

@Injectable()
class QuestionTools {
  @McpTool({ description: 'Asks the user for a name.' })
  askName() {
    return inputRequired({
      inputRequests: {
        name: inputRequired.elicit({
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        }),
      },
    });
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'questions', version: '1.0.0' })],
  providers: [QuestionTools],
})
class QuestionsModule {}

describe('a question to a 2025-era client served without a session', () => {
  const logger = captureLogs();
  let running: RunningApp;
  let client: TestClient;

  beforeAll(async () => {
    running = await startApp(QuestionsModule, { logger });
    client = await CLIENTS[0].connect(running.url);
  });

  afterAll(async () => {
    await client.close();
    await running.close();
  });

  it('is an isError result for the model, and one warning naming the option for the developer', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const result = await client.callTool('ask_name', {});
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain('Cannot request input');
    }
    const advice = logger
      .warnings()
      .map((warning) => warning.message)
      .filter((warning) => warning.includes('legacySessions'));
    expect(advice).toEqual([
      expect.stringContaining('The tool "ask_name" asked a 2025-era client'),
    ]);
  });
});
