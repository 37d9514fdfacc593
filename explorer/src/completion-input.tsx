import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A textbox with the server's completions under it as a listbox "Suggestions": ArrowDown
 * enters the list, Enter or a click takes a suggestion, Escape closes it.
 */
export function CompletionInput(props: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** The server's suggestions for a value; empty when it has none. */
  complete?: (value: string) => Promise<string[]>;
  required?: boolean;
  description?: string;
  /** The refusal of this value, naming the field. */
  error?: string;
}) {
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const asked = useRef(0);

  const ask = (value: string) => {
    if (!props.complete) return;
    const ticket = ++asked.current;
    setTimeout(() => {
      if (ticket !== asked.current) return;
      props.complete!(value).then(
        (values) => {
          if (ticket !== asked.current) return;
          setSuggestions(values.slice(0, 100));
          // Nothing to suggest when the only suggestion is what is typed already.
          setOpen(values.length > 0 && !(values.length === 1 && values[0] === value));
        },
        () => setSuggestions([]),
      );
    }, 150);
  };
  useEffect(() => () => void (asked.current = -1), []);

  const taking = useRef(false);
  const take = (value: string) => {
    props.onChange(value);
    setOpen(false);
    asked.current++;
    taking.current = true;
    input.current?.focus();
    taking.current = false;
  };
  const focusOption = (index: number) =>
    list.current?.querySelectorAll<HTMLElement>('[role="option"]')[index]?.focus();

  return (
    <div
      class="field completion"
      onFocusOut={(event) => {
        const next = event.relatedTarget as Node | null;
        if (!next || !event.currentTarget.contains(next)) {
          asked.current++;
          setOpen(false);
        }
      }}
    >
      <span class="label-row">
        <label for={props.id}>{props.label}</label>
        {props.required && (
          <span class="required-mark" aria-hidden="true" title="required">
            *
          </span>
        )}
      </span>
      <input
        ref={input}
        id={props.id}
        type="text"
        autoComplete="off"
        value={props.value}
        aria-autocomplete={props.complete ? 'list' : undefined}
        aria-required={props.required ? 'true' : undefined}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.description || props.error ? `${props.id}-d` : undefined}
        aria-controls={open ? `${props.id}-suggestions` : undefined}
        onFocus={() => taking.current || ask(props.value)}
        onInput={(event) => {
          props.onChange(event.currentTarget.value);
          ask(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && open) {
            event.preventDefault();
            focusOption(0);
          } else if (event.key === 'Escape') setOpen(false);
        }}
      />
      {(props.description || props.error) && (
        <div class="field-description" id={`${props.id}-d`}>
          {props.description && <span>{props.description}</span>}
          {props.error && (
            <p role="alert" class="field-error">
              {props.error}
            </p>
          )}
        </div>
      )}
      {open && (
        <ul
          ref={list}
          id={`${props.id}-suggestions`}
          role="listbox"
          aria-label="Suggestions"
          class="suggestions"
        >
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion}
              role="option"
              aria-selected={suggestion === props.value}
              tabIndex={-1}
              onClick={() => take(suggestion)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  take(suggestion);
                } else if (event.key === 'ArrowDown') {
                  event.preventDefault();
                  focusOption(Math.min(index + 1, suggestions.length - 1));
                } else if (event.key === 'ArrowUp') {
                  event.preventDefault();
                  if (index === 0) input.current?.focus();
                  else focusOption(index - 1);
                } else if (event.key === 'Escape') {
                  setOpen(false);
                  input.current?.focus();
                }
              }}
            >
              {suggestion}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
