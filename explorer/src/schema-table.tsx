import {
  describeConstraints,
  describeType,
  mainType,
  resolveSchema,
  type JsonSchema,
} from './json-schema.js';
import { ClampedText } from './clamped-text.js';

interface Row {
  name: string;
  type: string;
  required: boolean;
  notes: string[];
  description?: string;
}

/** The properties of an object schema, nested ones as `parent.child` and `items[]`. */
function rowsOf(
  schema: JsonSchema,
  root: JsonSchema,
  prefix = '',
  depth = 0,
  rows: Row[] = [],
): Row[] {
  const resolved = resolveSchema(schema, root);
  for (const [name, raw] of Object.entries(resolved.properties ?? {})) {
    const property = resolveSchema(raw, root);
    const path = prefix + name;
    rows.push({
      name: path,
      type: describeType(property, root),
      required: resolved.required?.includes(name) ?? false,
      notes: describeConstraints(property),
      description: property.description,
    });
    if (depth > 5) continue;
    if (mainType(property) === 'object') rowsOf(property, root, `${path}.`, depth + 1, rows);
    const items = property.items && resolveSchema(property.items, root);
    if (items && mainType(items) === 'object') rowsOf(items, root, `${path}[].`, depth + 1, rows);
  }
  return rows;
}

/** A schema as a readable table, with its raw JSON behind a disclosure. */
export function SchemaTable(props: { label: string; schema: JsonSchema }) {
  const rows = rowsOf(props.schema, props.schema);
  return (
    <section aria-label={props.label} class="schema">
      <h3>{props.label}</h3>
      {rows.length === 0 ? (
        <p class="muted">
          {mainType(props.schema) === 'object'
            ? 'No properties.'
            : describeType(props.schema, props.schema)}
        </p>
      ) : (
        <div class="table-scroll" tabIndex={0} aria-label={`${props.label} table`} role="group">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Description and constraints</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.name}>
                  <th scope="row" class="mono">
                    {row.name}
                  </th>
                  <td>{row.type}</td>
                  <td>{row.required ? 'required' : 'optional'}</td>
                  <td>
                    {row.description && <div>{row.description}</div>}
                    {row.notes.length > 0 && <div class="muted">{row.notes.join('; ')}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details>
        <summary>Raw JSON</summary>
        <ClampedText text={JSON.stringify(props.schema, null, 2)} />
      </details>
    </section>
  );
}
