/**
 * The insights panel's figures and tables: the period's totals, the coverage gaps, the top
 * questions, search without results, and pages. Every table has a caption and column headers; an
 * empty list says so in a row of its own.
 */
import { type ReactNode, useId } from 'react';
import { formatNumber, formatShare } from './charts.js';
import type { InsightsPanelLabels } from './labels.js';
import type {
  CoverageGap,
  InsightsPageRef,
  InsightsStats,
  PageInsights,
  QuestionGroup,
  SearchInsights,
} from './types.js';

type Labels = { labels: InsightsPanelLabels };

/** A section of the panel, named by its heading. */
export function Section({ title, name, children }: { title: string; name: string; children: ReactNode }) {
  const id = useId();
  return (
    <section data-insights={name} aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** A table of rows, or one row that says the list is empty. */
export function Table<T>({
  caption,
  columns,
  rows,
  row,
  empty,
}: {
  caption: string;
  columns: string[];
  rows: T[];
  row: (item: T, index: number) => ReactNode;
  empty: string;
}) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length ? (
          rows.map(row)
        ) : (
          <tr>
            <td colSpan={columns.length}>{empty}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** A page as text: its title, and its path in code (paths are the docs' own, never followed). */
export function PageName({ page }: { page: InsightsPageRef }) {
  return page.title && page.title !== page.path ? (
    <>
      {page.title} <code>{page.path}</code>
    </>
  ) : (
    <code>{page.path}</code>
  );
}

export function Totals({ stats, labels }: { stats: InsightsStats } & Labels) {
  const { totals } = stats;
  const figures: [string, string][] = [
    [labels.questions, formatNumber(totals.questions)],
    [labels.conversations, formatNumber(totals.conversations)],
    [labels.readers, formatNumber(totals.readers)],
    [labels.searches, formatNumber(totals.searches)],
    [labels.agentCalls, formatNumber(totals.agentCalls)],
    [labels.uncertainShare, formatShare(stats.uncertainShare)],
    [labels.satisfaction, formatShare(stats.satisfaction)],
  ];
  return (
    <dl data-insights="totals">
      {figures.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Gaps({ gaps, labels }: { gaps: CoverageGap[] } & Labels) {
  return (
    <Section title={labels.gaps} name="gaps">
      <Table
        caption={labels.gapsCaption}
        columns={[labels.topic, labels.questions, labels.examples, labels.closestPage]}
        rows={gaps}
        empty={labels.none}
        row={(gap) => (
          <tr key={gap.id}>
            <th scope="row">{gap.label}</th>
            <td>{formatNumber(gap.questions)}</td>
            <td>{gap.examples[0] ?? ''}</td>
            <td>{gap.closest ? <PageName page={gap.closest} /> : labels.noClosePage}</td>
          </tr>
        )}
      />
    </Section>
  );
}

export function TopQuestions({ groups, labels }: { groups: QuestionGroup[] } & Labels) {
  return (
    <Section title={labels.topQuestions} name="questions">
      <Table
        caption={labels.topQuestionsCaption}
        columns={[labels.topic, labels.questions, labels.uncertain, labels.votes, labels.examples]}
        rows={groups}
        empty={labels.none}
        row={(group) => (
          <tr key={group.id}>
            <th scope="row">{group.label}</th>
            <td>{formatNumber(group.questions)}</td>
            <td>{formatNumber(group.uncertain)}</td>
            <td>
              {formatNumber(group.up)} / {formatNumber(group.down)}
            </td>
            <td>{group.examples[0] ?? ''}</td>
          </tr>
        )}
      />
    </Section>
  );
}

export function Search({ search, labels }: { search: SearchInsights } & Labels) {
  const { totals } = search;
  return (
    <Section title={labels.search} name="search">
      <dl data-insights="totals">
        {(
          [
            [labels.searches, formatNumber(totals.searches)],
            [labels.noResults, formatNumber(totals.noResults)],
            [labels.clickThrough, formatShare(totals.clickThrough)],
          ] as const
        ).map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Table
        caption={labels.noResults}
        columns={[labels.query, labels.searches]}
        rows={search.noResults}
        empty={labels.none}
        row={(item) => (
          <tr key={item.query}>
            <th scope="row">{item.query}</th>
            <td>{formatNumber(item.searches)}</td>
          </tr>
        )}
      />
    </Section>
  );
}

export function Pages({ pages, labels }: { pages: PageInsights } & Labels) {
  const pageCell = (page: InsightsPageRef) => (
    <th scope="row">
      <PageName page={page} />
    </th>
  );
  return (
    <Section title={labels.pages} name="pages">
      <Table
        caption={labels.cited}
        columns={[labels.page, labels.count, labels.votes]}
        rows={pages.cited}
        empty={labels.none}
        row={(page) => (
          <tr key={page.path}>
            {pageCell(page)}
            <td>{formatNumber(page.citations)}</td>
            <td>
              {formatNumber(page.up)} / {formatNumber(page.down)}
            </td>
          </tr>
        )}
      />
      <Table
        caption={labels.downVoted}
        columns={[labels.page, labels.votedDown]}
        rows={pages.downVoted}
        empty={labels.none}
        row={(page) => (
          <tr key={page.path}>
            {pageCell(page)}
            <td>{formatNumber(page.down)}</td>
          </tr>
        )}
      />
      <Table
        caption={labels.askedOn}
        columns={[labels.page, labels.questions]}
        rows={pages.asked}
        empty={labels.none}
        row={(item) => (
          <tr key={item.currentPath}>
            <th scope="row">
              <code>{item.currentPath}</code>
            </th>
            <td>{formatNumber(item.questions)}</td>
          </tr>
        )}
      />
    </Section>
  );
}
