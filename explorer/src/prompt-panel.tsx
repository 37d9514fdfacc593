import { useEffect, useState } from 'preact/hooks';
import type { ContentBlock, Prompt, PromptMessage } from '@modelcontextprotocol/client';
import { fieldErrorsOf, outcomeOfError, type Outcome } from './call-outcome.js';
import { ContentView } from './content-view.js';
import { EntryDetail } from './entry-detail.js';
import type { ExplorerSession } from './explorer-session.js';
import { checkValue, type JsonSchema } from './json-schema.js';
import { ResultView } from './result-view.js';
import { CompletionInput } from './completion-input.js';

/** A prompt's arguments as an object schema of strings, so the same form fills them in. */
function schemaOf(prompt: Prompt): JsonSchema {
  const args = prompt.arguments ?? [];
  return {
    type: 'object',
    properties: Object.fromEntries(
      args.map((arg) => [arg.name, { type: 'string', description: arg.description }]),
    ),
    required: args.filter((arg) => arg.required).map((arg) => arg.name),
  };
}

/** A prompt: its arguments, and the messages it renders to for this caller. */
export function PromptPanel(props: { session: ExplorerSession; prompt: Prompt }) {
  const { session, prompt } = props;
  const schema = schemaOf(prompt);
  const [args, setArgs] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setArgs({});
    setErrors({});
    setOutcome(undefined);
  }, [prompt]);

  const completes = !!session.connection.client.getServerCapabilities()?.completions;
  const complete = (name: string) => async (value: string) => {
    const { completion } = await session.connection.client.complete({
      ref: { type: 'ref/prompt', name: prompt.name },
      argument: { name, value },
      context: {
        arguments: Object.fromEntries(
          Object.entries(args).filter(([key, given]) => key !== name && typeof given === 'string'),
        ) as Record<string, string>,
      },
    });
    return completion.values;
  };

  const get = async (event: Event) => {
    event.preventDefault();
    const refused = checkValue(schema, schema, args);
    setErrors(refused);
    if (Object.keys(refused).length > 0) return;
    const sent = args as Record<string, string>;
    setBusy(true);
    let result: Outcome;
    try {
      result = {
        kind: 'result',
        result: await session.connection.client.getPrompt({ name: prompt.name, arguments: sent }),
      };
    } catch (error) {
      result = outcomeOfError(error);
    }
    setBusy(false);
    setOutcome(result);
    setErrors(fieldErrorsOf(result));
    session.recordAction({ kind: 'prompt', name: prompt.name, arguments: sent, outcome: result });
  };

  const messages =
    outcome?.kind === 'result' ? (outcome.result.messages as PromptMessage[]) : undefined;
  return (
    <EntryDetail name={prompt.name} title={prompt.title} description={prompt.description}>
      <form class="call-form" onSubmit={(event) => void get(event)} noValidate>
        <h3>Arguments</h3>
        {(prompt.arguments ?? []).length === 0 && <p class="muted">No arguments.</p>}
        {(prompt.arguments ?? []).map((arg) => (
          <CompletionInput
            key={arg.name}
            id={`prompt-${prompt.name}-${arg.name}`}
            label={arg.name}
            required={arg.required}
            description={arg.description}
            error={errors[`/${arg.name}`]}
            value={(args[arg.name] as string) ?? ''}
            onChange={(value) => setArgs((old) => ({ ...old, [arg.name]: value || undefined }))}
            complete={completes ? complete(arg.name) : undefined}
          />
        ))}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Get prompt
          </button>
        </div>
      </form>
      {outcome && !messages && <ResultView outcome={outcome} />}
      {messages && (
        <section aria-label="Result" class="result">
          <h3>Result</h3>
          {outcome?.kind === 'result' && outcome.result.description && (
            <p>{String(outcome.result.description)}</p>
          )}
          <ol aria-label="Messages" class="messages">
            {messages.map((message, index) => (
              <li key={index} class={`message message-${message.role}`}>
                <span class="role">{message.role}</span>
                <ContentView block={message.content as ContentBlock} />
              </li>
            ))}
          </ol>
        </section>
      )}
    </EntryDetail>
  );
}
