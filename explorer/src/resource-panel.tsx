import { useEffect, useState } from 'preact/hooks';
import type { Resource } from '@modelcontextprotocol/client';
import { outcomeOfError, type Outcome } from './call-outcome.js';
import { EntryDetail } from './entry-detail.js';
import type { ExplorerSession } from './explorer-session.js';
import { ResourceContents } from './resource-contents.js';

/** Reads a resource as this caller and records the read for "Copy test". */
export async function readAs(session: ExplorerSession, uri: string): Promise<Outcome> {
  let outcome: Outcome;
  try {
    outcome = {
      kind: 'result',
      result: await session.connection.client.readResource({ uri }, { cacheMode: 'bypass' }),
    };
  } catch (error) {
    outcome = outcomeOfError(error);
  }
  session.recordAction({ kind: 'resource', uri, outcome });
  return outcome;
}

/** A listed resource: what it is, and its contents once read. */
export function ResourcePanel(props: { session: ExplorerSession; resource: Resource }) {
  const { resource } = props;
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  useEffect(() => setOutcome(undefined), [resource]);

  const facts: [string, string][] = [['URI', resource.uri]];
  if (resource.mimeType) facts.push(['Media type', resource.mimeType]);
  if (resource.size !== undefined) facts.push(['Size', `${resource.size} bytes`]);
  return (
    <EntryDetail
      name={resource.uri}
      title={resource.title ?? resource.name}
      description={resource.description}
      facts={facts}
    >
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setOutcome(await readAs(props.session, resource.uri));
            setBusy(false);
          }}
        >
          Read
        </button>
      </div>
      {outcome && <ResourceContents outcome={outcome} />}
    </EntryDetail>
  );
}
