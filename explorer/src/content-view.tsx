import type { ContentBlock } from '@modelcontextprotocol/client';
import { ClampedText } from './clamped-text.js';

/** A data: URL only for media types that are images or audio: nothing else is ever loaded. */
function dataUrl(
  kind: 'image' | 'audio',
  mimeType: string | undefined,
  data: string,
): string | undefined {
  if (
    !mimeType ||
    !new RegExp(`^${kind}/[\\w.+-]+$`).test(mimeType) ||
    mimeType === 'image/svg+xml'
  )
    return undefined;
  return `data:${mimeType};base64,${data}`;
}

/** A link the page may follow: http(s) only, never `javascript:`. */
const safeHref = (uri: string) => (/^https?:\/\//i.test(uri) ? uri : undefined);

/** One content item of a result or a prompt message, by its type; anything textual as text. */
export function ContentView(props: { block: ContentBlock }) {
  const block = props.block as ContentBlock & Record<string, any>;
  switch (block.type) {
    case 'text':
      return <ClampedText text={String(block.text)} />;
    case 'image': {
      const src = dataUrl('image', block.mimeType, block.data);
      return src ? (
        <img class="content-image" src={src} alt={`Image (${block.mimeType})`} />
      ) : (
        <p>Image of type {String(block.mimeType)}, not shown</p>
      );
    }
    case 'audio': {
      const src = dataUrl('audio', block.mimeType, block.data);
      return src ? (
        <audio controls src={src} aria-label={`Audio (${block.mimeType})`} />
      ) : (
        <p>Audio of type {String(block.mimeType)}, not shown</p>
      );
    }
    case 'resource_link': {
      const href = safeHref(String(block.uri));
      return (
        <p class="content-link">
          Resource link:{' '}
          {href ? (
            <a href={href} rel="noreferrer noopener" target="_blank">
              {block.name || block.uri}
            </a>
          ) : (
            <a href={`#resource=${encodeURIComponent(block.uri)}`}>{block.name || block.uri}</a>
          )}{' '}
          <span class="muted">
            {String(block.uri)}
            {block.mimeType ? ` (${block.mimeType})` : ''}
          </span>
        </p>
      );
    }
    case 'resource': {
      const resource = block.resource as {
        uri: string;
        mimeType?: string;
        text?: string;
        blob?: string;
      };
      return (
        <div class="content-resource">
          <p>
            Embedded resource <span class="mono">{resource.uri}</span>
            {resource.mimeType ? ` (${resource.mimeType})` : ''}
          </p>
          {resource.text !== undefined ? (
            <ClampedText text={resource.text} />
          ) : (
            <p class="muted">Binary, {resource.blob?.length ?? 0} base64 characters</p>
          )}
        </div>
      );
    }
    default:
      return <ClampedText text={JSON.stringify(block, null, 2)} />;
  }
}
