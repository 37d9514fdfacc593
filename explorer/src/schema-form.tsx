import { useState } from 'preact/hooks';
import { ObjectFields } from './schema-field.js';
import type { JsonSchema } from './json-schema.js';

export interface SchemaFormProps {
  schema: JsonSchema;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
  /** Refusals keyed by JSON pointer (`/limit`). */
  errors: Record<string, string>;
  /** Makes the ids of this form unique on the page. */
  form: string;
  /** Told when the user switches to raw JSON and back: raw JSON is sent as typed, unchecked. */
  onRaw?(raw: boolean): void;
}

/**
 * The fields of an object schema, or its value as JSON text: both edit the same value, so
 * switching keeps what was typed.
 */
export function SchemaForm(props: SchemaFormProps) {
  const [raw, setRaw] = useState(false);
  const [text, setText] = useState('');
  const [rawError, setRawError] = useState<string>();
  const hasFields = Object.keys(props.schema.properties ?? {}).length > 0;

  const toggle = (on: boolean) => {
    if (on) setText(JSON.stringify(props.value, null, 2));
    setRawError(undefined);
    setRaw(on);
    props.onRaw?.(on);
  };
  const onText = (next: string) => {
    setText(next);
    try {
      const parsed: unknown = JSON.parse(next || '{}');
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        setRawError('Arguments (JSON): must be a JSON object, like {"name": "value"}');
        return;
      }
      setRawError(undefined);
      props.onChange(parsed as Record<string, unknown>);
    } catch (error) {
      setRawError(`Arguments (JSON): ${(error as Error).message}`);
    }
  };

  return (
    <div class="schema-form">
      <div class="field field-checkbox raw-toggle">
        <input
          id={`${props.form}-raw`}
          type="checkbox"
          checked={raw}
          onChange={(event) => toggle(event.currentTarget.checked)}
        />
        <label for={`${props.form}-raw`}>Raw JSON</label>
      </div>
      {raw ? (
        <div class="field">
          <label for={`${props.form}-json`}>Arguments (JSON)</label>
          <textarea
            id={`${props.form}-json`}
            class="mono"
            rows={8}
            value={text}
            aria-invalid={rawError ? 'true' : undefined}
            aria-describedby={rawError ? `${props.form}-json-d` : undefined}
            onInput={(event) => onText(event.currentTarget.value)}
          />
          {!rawError && Object.keys(props.errors).length > 0 && (
            <ul class="field-description raw-errors">
              {Object.entries(props.errors).map(([pointer, message]) => (
                <li key={pointer} role="alert" class="field-error">
                  {message}
                </li>
              ))}
            </ul>
          )}
          {rawError && (
            <div id={`${props.form}-json-d`} class="field-description">
              <p role="alert" class="field-error">
                {rawError}
              </p>
            </div>
          )}
        </div>
      ) : hasFields ? (
        <ObjectFields
          path={[]}
          schema={props.schema}
          root={props.schema}
          value={props.value}
          onChange={(next) => props.onChange(next as Record<string, unknown>)}
          errors={props.errors}
          form={props.form}
        />
      ) : (
        <p class="muted">No arguments.</p>
      )}
    </div>
  );
}
