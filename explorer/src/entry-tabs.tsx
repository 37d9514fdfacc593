import { useRef } from 'preact/hooks';
import type { Catalog } from './mcp-connection.js';

export const TABS = ['Tools', 'Prompts', 'Resources', 'Templates'] as const;
export type Tab = (typeof TABS)[number];

interface Entry {
  key: string;
  title?: string;
}

/** The entries of a tab: the key is what the entry button's name starts with. */
export function entriesOf(catalog: Catalog, tab: Tab): Entry[] {
  switch (tab) {
    case 'Tools':
      return catalog.tools.map((tool) => ({
        key: tool.name,
        title: tool.title ?? tool.annotations?.title,
      }));
    case 'Prompts':
      return catalog.prompts.map((prompt) => ({ key: prompt.name, title: prompt.title }));
    case 'Resources':
      return catalog.resources.map((resource) => ({
        key: resource.uri,
        title: resource.title ?? resource.name,
      }));
    case 'Templates':
      return catalog.templates.map((template) => ({
        key: template.uriTemplate,
        title: template.title ?? template.name,
      }));
  }
}

/** The four tabs with their counts, and the list of the selected one. */
export function EntryTabs(props: {
  catalog: Catalog;
  tab: Tab;
  selected?: string;
  onTab(tab: Tab): void;
  onSelect(key: string): void;
}) {
  const tabs = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? TABS.length - 1
          : (index + step + TABS.length) % TABS.length;
    props.onTab(TABS[next]!);
    tabs.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };
  const entries = entriesOf(props.catalog, props.tab);
  return (
    <nav class="entries" aria-label="Entries">
      <div role="tablist" aria-label="Kinds of entries" ref={tabs} class="tabs">
        {TABS.map((tab, index) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`tab-${tab}`}
            aria-selected={tab === props.tab}
            aria-controls="entry-list"
            tabIndex={tab === props.tab ? 0 : -1}
            onClick={() => props.onTab(tab)}
            onKeyDown={(event) => move(event, index)}
          >
            {tab} ({entriesOf(props.catalog, tab).length})
          </button>
        ))}
      </div>
      <div role="tabpanel" id="entry-list" aria-labelledby={`tab-${props.tab}`}>
        {entries.length === 0 ? (
          <p class="muted">This caller sees no {props.tab.toLowerCase()}.</p>
        ) : (
          <ul class="entry-list">
            {entries.map((entry) => (
              <li key={entry.key}>
                <button
                  type="button"
                  aria-current={entry.key === props.selected ? 'true' : undefined}
                  onClick={() => props.onSelect(entry.key)}
                >
                  <span class="mono entry-name">{entry.key}</span>
                  {entry.title && <span class="entry-sub">{entry.title}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </nav>
  );
}
