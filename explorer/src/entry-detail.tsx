import { Fragment, type ComponentChildren } from 'preact';
import type { ManifestEntry } from './mcp-connection.js';
import { ClampedText } from './clamped-text.js';

/** The annotations of a tool, in words. */
export function annotationWords(annotations: Record<string, unknown> | undefined): string[] {
  if (!annotations) return [];
  const words: string[] = [];
  if (annotations.readOnlyHint === true) words.push('read-only');
  if (annotations.destructiveHint === true) words.push('destructive');
  if (annotations.readOnlyHint === false && annotations.destructiveHint !== true)
    words.push('writes');
  if (annotations.idempotentHint === true) words.push('idempotent');
  if (annotations.openWorldHint === true) words.push('open world');
  if (annotations.openWorldHint === false) words.push('closed world');
  return words;
}

/** The head of an entry: its name, title, description and what else the server says of it. */
export function EntryDetail(props: {
  name: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
  manifest?: ManifestEntry;
  facts?: [string, string][];
  children?: ComponentChildren;
}) {
  const words = annotationWords(props.annotations);
  const scopes = props.manifest?.scopes ?? [];
  const aliases = props.manifest?.aliases ?? [];
  return (
    <div class="entry-detail">
      <h2>{props.name}</h2>
      {props.title && <p class="entry-title">{props.title}</p>}
      {props.description && <ClampedText text={props.description} class="description" />}
      <dl class="facts">
        {words.length > 0 && (
          <>
            <dt>Annotations</dt>
            <dd>
              <ul class="tags" aria-label="Annotations">
                {words.map((word) => (
                  <li key={word} class="tag">
                    {word}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {scopes.length > 0 && (
          <>
            <dt>Scopes</dt>
            <dd>{scopes.join(props.manifest?.scopeMatch === 'any' ? ' or ' : ', ')}</dd>
          </>
        )}
        {aliases.length > 0 && (
          <>
            <dt>Aliases</dt>
            <dd>{aliases.join(', ')}</dd>
          </>
        )}
        {(props.facts ?? []).map(([term, value]) => (
          <Fragment key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
      {props.children}
    </div>
  );
}
