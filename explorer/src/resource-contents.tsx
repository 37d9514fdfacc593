import type { Outcome } from './call-outcome.js';
import { ClampedText } from './clamped-text.js';
import { ContentView } from './content-view.js';
import { ResultView } from './result-view.js';

interface Contents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** What `resources/read` returned: each content as text, an image, or a note on binary data. */
export function ResourceContents(props: { outcome: Outcome }) {
  if (props.outcome.kind !== 'result') return <ResultView outcome={props.outcome} />;
  const contents = (props.outcome.result.contents ?? []) as Contents[];
  return (
    <section aria-label="Result" class="result">
      <h3>Result</h3>
      {contents.length === 0 && <p class="muted">No contents.</p>}
      <ul class="content-list" aria-label="Contents">
        {contents.map((content, index) => (
          <li key={index}>
            <p class="mono">
              {content.uri}
              {content.mimeType ? <span class="muted"> ({content.mimeType})</span> : null}
            </p>
            {content.text !== undefined ? (
              <ClampedText text={content.text} />
            ) : content.mimeType?.startsWith('image/') || content.mimeType?.startsWith('audio/') ? (
              <ContentView
                block={
                  {
                    type: content.mimeType.startsWith('image/') ? 'image' : 'audio',
                    data: content.blob ?? '',
                    mimeType: content.mimeType,
                  } as never
                }
              />
            ) : (
              <p class="muted">Binary, {content.blob?.length ?? 0} base64 characters</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
