/**
 * The insights panel's figures and tables: the period's totals, the coverage gaps, the top
 * questions, search without results, and pages. The dashboard's sections are data
 * (`dashboardSections`), each a heading over its figures and tables, rendered by one component.
 * Every table has a caption and column headers; an empty list says so in a row of its own.
 */
import { type ReactNode, useId } from 'react';
import { formatNumber, formatShare } from './charts.js';
import type { InsightsData } from './client.js';
import type { InsightsPanelLabels } from './labels.js';
import type { InsightsPageRef, InsightsStats, PageInsights } from './types.js';

type Labels = { labels: InsightsPanelLabels };

/** A row of a table: its key, the cell that heads it, and its other cells. */
export interface TableRow {
  key: string;
  head: ReactNode;
  cells: ReactNode[];
}

/** A table: its caption, column headers and rows. */
export interface TableSpec {
  caption: string;
  columns: string[];
  rows: TableRow[];
}

/** Figures as term and value (`<dl data-insights="totals">`). */
type Figure = [term: string, value: string];

/** A section of the dashboard: its heading, `data-insights` name, figures and tables. */
interface DashboardSection {
  name: string;
  title: string;
  figures?: Figure[];
  tables: TableSpec[];
}

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
export function Table({ caption, columns, rows, empty }: TableSpec & { empty: string }) {
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
          rows.map(({ key, head, cells }) => (
            <tr key={key}>
              <th scope="row">{head}</th>
              {cells.map((cell, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells, one per column, never reordered
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))
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

function Figures({ figures }: { figures: Figure[] }) {
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

export function Totals({ stats, labels }: { stats: InsightsStats } & Labels) {
  const { totals } = stats;
  return (
    <Figures
      figures={[
        [labels.questions, formatNumber(totals.questions)],
        [labels.conversations, formatNumber(totals.conversations)],
        [labels.readers, formatNumber(totals.readers)],
        [labels.searches, formatNumber(totals.searches)],
        [labels.agentCalls, formatNumber(totals.agentCalls)],
        [labels.uncertainShare, formatShare(stats.uncertainShare)],
        [labels.satisfaction, formatShare(stats.satisfaction)],
      ]}
    />
  );
}

const votes = (up: number, down: number) => `${formatNumber(up)} / ${formatNumber(down)}`;

/** The pages section's tables: pages cited, voted down, and asked on. */
function pageTables(pages: PageInsights, labels: InsightsPanelLabels): TableSpec[] {
  const { page } = labels;
  return [
    {
      caption: labels.cited,
      columns: [page, labels.count, labels.votes],
      rows: pages.cited.map((item) => ({
        key: item.path,
        head: <PageName page={item} />,
        cells: [formatNumber(item.citations), votes(item.up, item.down)],
      })),
    },
    {
      caption: labels.downVoted,
      columns: [page, labels.votedDown],
      rows: pages.downVoted.map((item) => ({
        key: item.path,
        head: <PageName page={item} />,
        cells: [formatNumber(item.down)],
      })),
    },
    {
      caption: labels.askedOn,
      columns: [page, labels.questions],
      rows: pages.asked.map((item) => ({
        key: item.currentPath,
        head: <code>{item.currentPath}</code>,
        cells: [formatNumber(item.questions)],
      })),
    },
  ];
}

/** The dashboard's tables, section by section, in the order they are shown. */
function dashboardSections(data: InsightsData, labels: InsightsPanelLabels): DashboardSection[] {
  const { search } = data;
  const { topic, questions, examples } = labels;
  return [
    {
      name: 'gaps',
      title: labels.gaps,
      tables: [
        {
          caption: labels.gapsCaption,
          columns: [topic, questions, examples, labels.closestPage],
          rows: data.gaps.map((gap) => ({
            key: gap.id,
            head: gap.label,
            cells: [
              formatNumber(gap.questions),
              gap.examples[0] ?? '',
              gap.closest ? <PageName key="closest" page={gap.closest} /> : labels.noClosePage,
            ],
          })),
        },
      ],
    },
    {
      name: 'questions',
      title: labels.topQuestions,
      tables: [
        {
          caption: labels.topQuestionsCaption,
          columns: [topic, questions, labels.uncertain, labels.votes, examples],
          rows: data.questions.map((group) => ({
            key: group.id,
            head: group.label,
            cells: [
              formatNumber(group.questions),
              formatNumber(group.uncertain),
              votes(group.up, group.down),
              group.examples[0] ?? '',
            ],
          })),
        },
      ],
    },
    {
      name: 'search',
      title: labels.search,
      figures: [
        [labels.searches, formatNumber(search.totals.searches)],
        [labels.noResults, formatNumber(search.totals.noResults)],
        [labels.clickThrough, formatShare(search.totals.clickThrough)],
      ],
      tables: [
        {
          caption: labels.noResults,
          columns: [labels.query, labels.searches],
          rows: search.noResults.map((item) => ({
            key: item.query,
            head: item.query,
            cells: [formatNumber(item.searches)],
          })),
        },
      ],
    },
    {
      name: 'pages',
      title: labels.pages,
      tables: pageTables(data.pages, labels),
    },
  ];
}

/** The coverage gaps, top questions, search and pages sections. */
export function DashboardSections({ data, labels }: { data: InsightsData } & Labels) {
  return dashboardSections(data, labels).map(({ name, title, figures, tables }) => (
    <Section key={name} title={title} name={name}>
      {figures ? <Figures figures={figures} /> : null}
      {tables.map((table, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a section's tables, fixed in number and order
        <Table key={i} {...table} empty={labels.none} />
      ))}
    </Section>
  ));
}
