/** Children past this many are summarized: a tree of thousands of nodes stays usable. */
const MAX_CHILDREN = 200;
const MAX_LEAF = 2_000;

function Leaf(props: { value: unknown }) {
  const text = JSON.stringify(props.value) ?? String(props.value);
  const kind = props.value === null ? 'null' : typeof props.value;
  return (
    <span class={`json-${kind}`}>
      {text.length > MAX_LEAF ? `${text.slice(0, MAX_LEAF)}…` : text}
    </span>
  );
}

function Node(props: { name: string; value: unknown; open: boolean }) {
  const { value } = props;
  if (value === null || typeof value !== 'object') {
    return (
      <li>
        <span class="json-key">{props.name}</span>: <Leaf value={value} />
      </li>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  const shape = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <li>
      <details open={props.open}>
        <summary>
          <span class="json-key">{props.name}</span> <span class="muted">{shape}</span>
        </summary>
        <ul class="json-tree">
          {entries.slice(0, MAX_CHILDREN).map(([name, child]) => (
            <Node key={name} name={name} value={child} open={false} />
          ))}
          {entries.length > MAX_CHILDREN && (
            <li class="muted">… {entries.length - MAX_CHILDREN} more</li>
          )}
        </ul>
      </details>
    </li>
  );
}

/** A JSON value as a tree of `details`, the first level open. */
export function JsonTree(props: { value: unknown; name?: string }) {
  return (
    <ul class="json-tree json-root">
      <Node name={props.name ?? 'root'} value={props.value} open={true} />
    </ul>
  );
}
