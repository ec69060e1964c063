/**
 * The answer bench's question set (`bench/questions/answers.json`, issue 37) through the real
 * service over HTTP (v1 endpoint, extractive engine), held to a ratchet: the share of answers whose
 * lead holds the question's expected fact may not drop below what the engine reaches today. Each
 * answer is deterministic (same docs, same question, same answer), so the figure is too.
 */
import { type AskedAnswer, answerBlocks, leadOf, loadAnswerSet, runSite } from '../../bench/answers-quality';

// Leads with their expected fact on 2026-12-06, after the lead rework (45 before it). Raise it
// when the engine gets better; never lower it to make a change pass.
const LEADS_WITH_FACT = 59;

describe('what the extractive answer leads with', () => {
  const set = loadAnswerSet();
  const asked: AskedAnswer[] = [];

  beforeAll(async () => {
    for (const site of Object.keys(set.sites)) asked.push(...(await runSite(set, site)).asked);
  }, 180_000);

  it('asks a set of at least 60 questions over at least four sites, of every kind', () => {
    expect(asked.length).toBe(set.questions.length);
    expect(asked.length).toBeGreaterThanOrEqual(60);
    expect(new Set(asked.map((a) => a.site)).size).toBeGreaterThanOrEqual(4);
    const kinds = new Set(asked.map((a) => a.kind));
    for (const kind of [
      'how-to',
      'option',
      'concept',
      'troubleshooting',
      'other-language',
      'follow-up',
      'selection',
    ])
      expect(kinds, kind).toContain(kind);
  });

  it(`leads with the expected fact in at least ${LEADS_WITH_FACT} answers`, () => {
    const missed = asked.filter((a) => !a.leadHasFact).map((a) => `${a.site}: ${a.question}\n${a.lead}`);
    expect(asked.length - missed.length, missed.join('\n\n')).toBeGreaterThanOrEqual(LEADS_WITH_FACT);
  });

  it('answers a selected passage or code block from it, never with a decline', () => {
    const selections = asked.filter((a) => a.context?.length);
    expect(selections.length).toBeGreaterThanOrEqual(5);
    for (const a of selections) {
      expect(a.text, a.question).not.toMatch(/don't cover that/);
      expect(a.lead, a.question).toMatch(/^This (passage|code) is from \*\*/);
    }
  });

  it('never quotes text written for AI agents or for the docs authors', () => {
    for (const a of asked)
      expect(a.text, a.question).not.toMatch(/tell me before continuing|TODO|Author note/i);
  });

  it('has no lead with steps from a section that acts against the question', () => {
    const scim = asked.find((a) => a.question === 'How do I automatically provision users with SCIM?')!;
    expect(scim.lead).toMatch(/^From \*\*Enable SCIM\*\*/);
    expect(scim.text).not.toMatch(/Disable SCIM/);
    const noindex = asked.find((a) => a.question === 'How do I stop search engines from indexing a page?')!;
    expect(noindex.lead).toContain('noindex: true');
    expect(noindex.text).not.toMatch(/indexable by default/);
  });
});

describe('the lead of an answer', () => {
  it('is the first paragraph, with the steps or code it introduces, up to the suggestions', () => {
    const text =
      'From **A** in *B* [1]:\n\n1. One:\n\n   ```bash\n   x\n   ```\n2. Two\n\n- **C**: other [2].\n\n```suggestions\n(P)[/p]\n```';
    expect(answerBlocks(text)).toEqual([
      'From **A** in *B* [1]:',
      '1. One:\n   ```bash\n   x\n   ```\n2. Two',
      '- **C**: other [2].',
    ]);
    expect(leadOf(text)).toBe('From **A** in *B* [1]:\n\n1. One:\n   ```bash\n   x\n   ```\n2. Two');
    expect(leadOf('*Sources are in English.*\n\nSet `theme` \\<Tabs> [1].\n\n- **D**: e.')).toBe(
      'Set `theme` <Tabs> [1].',
    );
  });
});
