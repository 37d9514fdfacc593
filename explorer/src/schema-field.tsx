import type { ComponentChildren } from 'preact';
import {
  enumValues,
  fieldKind,
  initialValue,
  pointerOf,
  resolveSchema,
  type JsonSchema,
} from './json-schema.js';

export interface FieldProps {
  /** The label: the property's name, or `name[2]` for an array item. */
  label: string;
  path: (string | number)[];
  schema: JsonSchema;
  root: JsonSchema;
  required: boolean;
  value: unknown;
  onChange(value: unknown): void;
  /** Refusals keyed by JSON pointer. */
  errors: Record<string, string>;
  /** Makes the ids of this form unique on the page. */
  form: string;
}

const idOf = (form: string, path: (string | number)[]) =>
  `${form}-${pointerOf(path).replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** The description under a field, and its refusal as an alert naming the field. */
function Described(props: { id: string; schema: JsonSchema; error?: string }) {
  if (!props.schema.title && !props.schema.description && !props.error) return null;
  return (
    <div class="field-description" id={props.id}>
      {props.schema.title && <span class="field-title">{props.schema.title}. </span>}
      {props.schema.description && <span>{props.schema.description}</span>}
      {props.error && (
        <p role="alert" class="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** The label is the name alone; the required mark beside it is seen, aria-required is heard. */
function Label(props: { for: string; label: string; required: boolean }) {
  return (
    <span class="label-row">
      <label for={props.for}>{props.label}</label>
      {props.required && (
        <span class="required-mark" aria-hidden="true" title="required">
          *
        </span>
      )}
    </span>
  );
}

function Group(props: FieldProps & { children: ComponentChildren; error?: string }) {
  const id = idOf(props.form, props.path);
  return (
    <fieldset
      class="field-group"
      aria-describedby={props.error || props.schema.description ? `${id}-d` : undefined}
    >
      <legend>
        {props.label}
        {props.required && (
          <span class="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </legend>
      <Described id={`${id}-d`} schema={props.schema} error={props.error} />
      {props.children}
    </fieldset>
  );
}

/** The fields of an object's properties, each labelled by its name. */
export function ObjectFields(props: Omit<FieldProps, 'label' | 'required'>) {
  const schema = resolveSchema(props.schema, props.root);
  const value = (props.value ?? {}) as Record<string, unknown>;
  return (
    <>
      {Object.entries(schema.properties ?? {}).map(([name, property]) => (
        <SchemaField
          key={name}
          {...props}
          label={name}
          path={[...props.path, name]}
          schema={property}
          required={schema.required?.includes(name) ?? false}
          value={value[name]}
          onChange={(next) => {
            const copy = { ...value };
            if (next === undefined) delete copy[name];
            else copy[name] = next;
            props.onChange(copy);
          }}
        />
      ))}
    </>
  );
}

/** One input for one value, chosen from its schema. */
export function SchemaField(props: FieldProps) {
  const schema = resolveSchema(props.schema, props.root);
  const id = idOf(props.form, props.path);
  const error = props.errors[pointerOf(props.path)];
  const describedBy = schema.title || schema.description || error ? `${id}-d` : undefined;
  const common = {
    id,
    'aria-required': props.required ? ('true' as const) : undefined,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
  };
  const kind = fieldKind(schema);

  if (kind === 'object') {
    return (
      <Group {...props} error={error}>
        <ObjectFields {...props} schema={schema} />
      </Group>
    );
  }
  if (kind === 'array') {
    const items = Array.isArray(props.value) ? props.value : [];
    const set = (next: unknown[]) => props.onChange(next);
    return (
      <Group {...props} error={error}>
        {items.map((item, index) => (
          <div class="array-item" key={index}>
            <SchemaField
              {...props}
              label={`${props.label}[${index}]`}
              path={[...props.path, index]}
              schema={schema.items ?? {}}
              required={false}
              value={item}
              onChange={(next) => set(items.map((old, at) => (at === index ? next : old)))}
            />
            <button
              type="button"
              class="secondary"
              onClick={() => set(items.filter((_, at) => at !== index))}
            >
              Remove item
            </button>
          </div>
        ))}
        <button
          type="button"
          class="secondary"
          onClick={() => set([...items, initialValue(schema.items ?? {}, props.root)])}
        >
          Add item
        </button>
      </Group>
    );
  }

  let input;
  if (kind === 'boolean') {
    return (
      <div class="field field-checkbox">
        <input
          type="checkbox"
          {...common}
          checked={props.value === true}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
        <Label for={id} label={props.label} required={props.required} />
        <Described id={`${id}-d`} schema={schema} error={error} />
      </div>
    );
  } else if (kind === 'enum') {
    const values = enumValues(schema)!;
    const index = values.findIndex(
      (allowed) => JSON.stringify(allowed) === JSON.stringify(props.value),
    );
    input = (
      <select
        {...common}
        value={String(index)}
        onChange={(event) => {
          const at = Number(event.currentTarget.value);
          props.onChange(at < 0 ? undefined : values[at]);
        }}
      >
        <option value="-1">{props.required ? 'Choose…' : '(none)'}</option>
        {values.map((allowed, at) => (
          <option key={at} value={String(at)}>
            {typeof allowed === 'string' ? allowed : JSON.stringify(allowed)}
          </option>
        ))}
      </select>
    );
  } else if (kind === 'number' || kind === 'integer') {
    input = (
      <input
        type="number"
        {...common}
        step={kind === 'integer' ? 1 : 'any'}
        value={typeof props.value === 'number' ? String(props.value) : ''}
        onInput={(event) => {
          const text = event.currentTarget.value;
          props.onChange(text === '' || Number.isNaN(Number(text)) ? undefined : Number(text));
        }}
      />
    );
  } else if (kind === 'string') {
    const long = (schema.maxLength ?? 0) > 200;
    const onInput = (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
      props.onChange(
        event.currentTarget.value === '' && !props.required ? undefined : event.currentTarget.value,
      );
    input = long ? (
      <textarea {...common} rows={3} value={(props.value as string) ?? ''} onInput={onInput} />
    ) : (
      <input type="text" {...common} value={(props.value as string) ?? ''} onInput={onInput} />
    );
  } else {
    input = <JsonInput common={common} value={props.value} onChange={props.onChange} />;
  }
  return (
    <div class="field">
      <Label for={id} label={props.label} required={props.required} />
      {input}
      <Described id={`${id}-d`} schema={schema} error={error} />
    </div>
  );
}

/** A value of no simple shape, typed as JSON; kept as text until it parses. */
function JsonInput(props: {
  common: Record<string, unknown>;
  value: unknown;
  onChange(value: unknown): void;
}) {
  return (
    <textarea
      {...props.common}
      rows={3}
      class="mono"
      value={props.value === undefined ? '' : JSON.stringify(props.value)}
      onChange={(event) => {
        const text = event.currentTarget.value.trim();
        if (text === '') return props.onChange(undefined);
        try {
          props.onChange(JSON.parse(text));
        } catch {
          props.onChange(text);
        }
      }}
    />
  );
}
