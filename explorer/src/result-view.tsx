import type { ContentBlock } from '@modelcontextprotocol/client';
import type { Outcome } from './call-outcome.js';
import { ContentView } from './content-view.js';
import { JsonTree } from './json-tree.js';
import { ClampedText } from './clamped-text.js';

/** The answer of a call: its content by type, its structured content as a tree, errors marked. */
export function ResultView(props: { outcome: Outcome; label?: string }) {
  const { outcome } = props;
  return (
    <section aria-label={props.label ?? 'Result'} class="result">
      <h3>{props.label ?? 'Result'}</h3>
      {outcome.kind === 'cancelled' && <p class="status">Cancelled</p>}
      {outcome.kind === 'error' && (
        <div class="error-box">
          <p>
            <strong>
              Error{outcome.code !== undefined ? ` ${outcome.code}` : ''}: {outcome.message}
            </strong>
          </p>
          {outcome.data !== undefined && (
            <details>
              <summary>Error data</summary>
              <ClampedText text={JSON.stringify(outcome.data, null, 2)} />
            </details>
          )}
        </div>
      )}
      {outcome.kind === 'result' && <ResultBody result={outcome.result} />}
    </section>
  );
}

function ResultBody(props: { result: Record<string, any> }) {
  const { result } = props;
  const content = (Array.isArray(result.content) ? result.content : []) as ContentBlock[];
  return (
    <>
      {result.isError && (
        <p class="error-mark">
          <strong>Error</strong> (the tool reported a failure: isError)
        </p>
      )}
      {content.length > 0 && (
        <ul class="content-list" aria-label="Content">
          {content.map((block, index) => (
            <li key={index}>
              <ContentView block={block} />
            </li>
          ))}
        </ul>
      )}
      {result.structuredContent !== undefined && (
        <section aria-label="Structured content" class="structured">
          <h4>Structured content</h4>
          <JsonTree value={result.structuredContent} name="structuredContent" />
        </section>
      )}
    </>
  );
}
