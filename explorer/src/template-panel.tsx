import { useEffect, useState } from 'preact/hooks';
import type { ResourceTemplateType } from '@modelcontextprotocol/client';
import type { Outcome } from './call-outcome.js';
import { CompletionInput } from './completion-input.js';
import { EntryDetail } from './entry-detail.js';
import type { ExplorerSession } from './explorer-session.js';
import { readAs } from './resource-panel.js';
import { ResourceContents } from './resource-contents.js';
import { expandTemplate, templateVariables } from './uri-template.js';

/** A resource template: one textbox per variable, completed by the server, then read. */
export function TemplatePanel(props: { session: ExplorerSession; template: ResourceTemplateType }) {
  const { session, template } = props;
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setValues({});
    setOutcome(undefined);
  }, [template]);

  const completes = !!session.connection.client.getServerCapabilities()?.completions;
  const complete = (name: string) => async (value: string) => {
    const { completion } = await session.connection.client.complete({
      ref: { type: 'ref/resource', uri: template.uriTemplate },
      argument: { name, value },
      context: {
        arguments: Object.fromEntries(Object.entries(values).filter(([key]) => key !== name)),
      },
    });
    return completion.values;
  };
  const uri = expandTemplate(template.uriTemplate, values);

  return (
    <EntryDetail
      name={template.uriTemplate}
      title={template.title ?? template.name}
      description={template.description}
      facts={[
        ['Name', template.name],
        ...(template.mimeType ? [['Media type', template.mimeType] as [string, string]] : []),
      ]}
    >
      <form
        class="call-form"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setOutcome(await readAs(session, uri));
          setBusy(false);
        }}
      >
        <h3>Variables</h3>
        {variables.map((name) => (
          <CompletionInput
            key={`${template.uriTemplate}-${name}`}
            id={`template-${name}`}
            label={name}
            value={values[name] ?? ''}
            onChange={(value) => setValues((old) => ({ ...old, [name]: value }))}
            complete={completes ? complete(name) : undefined}
          />
        ))}
        <p>
          URI: <span class="mono">{uri}</span>
        </p>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Read
          </button>
        </div>
      </form>
      {outcome && <ResourceContents outcome={outcome} />}
    </EntryDetail>
  );
}
