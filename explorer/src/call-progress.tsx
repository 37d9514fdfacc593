import type { Progress } from '@modelcontextprotocol/client';

/** A running call: its progress, the notifications it sent, and the way to stop it. */
export function CallProgress(props: {
  running: boolean;
  progress?: Progress;
  lines: string[];
  onCancel?: () => void;
}) {
  const { progress } = props;
  const percent = progress?.total
    ? Math.round((progress.progress / progress.total) * 100)
    : undefined;
  if (!props.running && props.lines.length === 0) return null;
  return (
    <div class="call-progress">
      {props.running && (
        <div class="progress-row">
          {progress ? (
            <progress
              aria-label="Progress"
              max={progress.total ?? undefined}
              value={progress.progress}
              aria-valuetext={
                progress.message ??
                (percent !== undefined ? `${percent}%` : String(progress.progress))
              }
            />
          ) : (
            <progress aria-label="Progress" />
          )}
          <span class="progress-message" aria-live="polite">
            {progress?.message ?? 'Running…'}
            {percent !== undefined ? ` (${percent}%)` : ''}
          </span>
          {props.onCancel && (
            <button type="button" class="danger" onClick={props.onCancel}>
              Cancel
            </button>
          )}
        </div>
      )}
      {props.lines.length > 0 && (
        <ul aria-label="Notifications" class="notifications" tabIndex={0}>
          {props.lines.slice(-200).map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
