/** More than this is cut: a hostile server's megabytes must not freeze the page. */
const MAX_CHARS = 500_000;

/**
 * Text from the server, shown as text (never parsed as HTML) in a block that scrolls past a
 * few lines; it takes the keyboard focus so the scroll is reachable without a mouse.
 */
export function ClampedText(props: { text: string; label?: string; class?: string }) {
  const cut = props.text.length > MAX_CHARS;
  const text = cut ? props.text.slice(0, MAX_CHARS) : props.text;
  return (
    <div class={`clamped ${props.class ?? ''}`}>
      <pre tabIndex={0} aria-label={props.label}>
        {text}
      </pre>
      {cut && (
        <p class="muted">
          Cut at {MAX_CHARS.toLocaleString('en')} of {props.text.length.toLocaleString('en')}{' '}
          characters.
        </p>
      )}
    </div>
  );
}
