import { useEffect, useRef, useState } from 'preact/hooks';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { checkValue, initialValue, type JsonSchema } from './json-schema.js';
import type { Question } from './mcp-connection.js';
import { SchemaForm } from './schema-form.js';

/**
 * A question the server asks during a call (elicitation, or a task's input request): a modal
 * dialog named by the server's message, with a form generated from the requested schema.
 */
export function QuestionDialog(props: {
  question: Question;
  onAnswer(answer: ElicitResult): void;
}) {
  const schema = props.question.requestedSchema as JsonSchema;
  const [value, setValue] = useState<Record<string, unknown>>(
    () => (initialValue(schema, schema) as Record<string, unknown>) ?? {},
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const accept = (event: Event) => {
    event.preventDefault();
    const refused = checkValue(schema, schema, value);
    setErrors(refused);
    if (Object.keys(refused).length === 0)
      props.onAnswer({ action: 'accept', content: value as ElicitResult['content'] });
  };

  return (
    <dialog
      ref={dialog}
      class="question"
      aria-labelledby="question-message"
      onCancel={(event) => {
        event.preventDefault();
        props.onAnswer({ action: 'cancel' });
      }}
    >
      <form onSubmit={accept} noValidate>
        <p id="question-message" class="question-message">
          {props.question.message}
        </p>
        <p class="muted">The server asks this during the call.</p>
        <SchemaForm
          schema={schema}
          value={value}
          onChange={setValue}
          errors={errors}
          form="question"
        />
        <div class="actions">
          <button type="submit" class="primary">
            Accept
          </button>
          <button type="button" onClick={() => props.onAnswer({ action: 'decline' })}>
            Decline
          </button>
          <button type="button" onClick={() => props.onAnswer({ action: 'cancel' })}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
