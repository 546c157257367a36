// Deterministic synthetic knowledge base for the search benchmarks: English and Japanese-ish Markdown notes with
// frontmatter and headings (one chunk per section), and a matching mix of realistic queries with and without
// filters. Word choice is Zipfian with a per-topic bias, so common terms are common and topics concentrate terms.

import fs from 'node:fs';
import path from 'node:path';

/** Small, fast, seedable PRNG (mulberry32): the same seed writes byte-identical KBs and queries. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN_FUNCTION =
  'the of and to a in is that for it as with on be by this are from or at an which can'.split(' ');
const EN_CONTENT =
  `system data user server request error index search query database file config network service
cache token memory process thread queue message event log metric alert deploy release build test release version
backup restore schema table column migration replica cluster node storage disk volume latency throughput timeout
retry session password account login permission role policy audit security certificate key secret vault proxy
gateway endpoint route handler client library package module function method class interface type value field
record document page section heading chunk vector embedding model ranking score filter tag category topic date
budget revenue invoice customer order payment refund shipping warehouse supplier contract meeting review roadmap
quarter forecast report dashboard sales marketing campaign onboarding training hiring interview feedback goal
recipe kitchen oven flour sugar butter garden soil water light temperature battery charger laptop monitor keyboard
printer router firmware driver kernel compiler parser lexer syntax grammar benchmark profile optimise allocate
release rollback incident postmortem outage oncall runbook checklist ticket sprint backlog estimate priority owner
photosynthesis protein enzyme molecule cell gene mutation vaccine trial patient dose symptom diagnosis therapy
climate carbon emission energy solar wind grid voltage current circuit sensor signal frequency antenna satellite`
    .split(/\s+/)
    .filter(Boolean);
const EN_VERBS =
  `configure install update remove restart check verify enable disable rotate monitor measure compare
export import migrate upgrade review approve merge publish schedule archive rebuild reset recover investigate`
    .split(/\s+/)
    .filter(Boolean);
const JA_WORDS =
  `東京 大阪 売上 報告書 会議 議事録 予算 顧客 請求書 契約 出荷 在庫 倉庫 仕入先 見積 パスワード 再設定 手順
アカウント 権限 監査 証明書 サーバー データベース バックアップ 復元 障害 対応 監視 通知 設定 更新 削除 検索 索引 文書
見出し 担当者 期限 優先度 課題 進捗 計画 目標 採用 面接 研修 評価 料理 レシピ 砂糖 小麦粉 温度 電池 充電 ネットワーク
セキュリティ ログ 指標 応答 遅延 性能 改善 移行 導入 運用 保守 品質 試験 結果 分析 四半期 年度 部門 営業 広報 開発`
    .split(/\s+/)
    .filter(Boolean);
const JA_PARTICLES = ['の', 'は', 'を', 'に', 'が', 'と', 'で', 'から', 'まで', 'について'];
const JA_ENDINGS = ['します。', 'してください。', 'を確認する。', 'が必要です。', 'を行います。', 'です。'];
const TAGS = Array.from({ length: 40 }, (_, i) => `tag${i}`);
const AREAS = ['engineering', 'operations', 'sales', 'research', 'people', 'kitchen', 'hardware', 'docs'];
const TOPICS_PER_AREA = 6;

/** Zipf-like sampler over `words` (rank r weighted 1/(r+2)). */
function zipf(words: readonly string[], random: () => number): () => string {
  const cdf: number[] = [];
  let total = 0;
  for (let r = 0; r < words.length; r++) {
    total += 1 / (r + 2);
    cdf.push(total);
  }
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Text generators sharing one PRNG; `topic` biases which content words appear. */
class Writer {
  readonly random: () => number;
  private readonly content: () => string;
  private readonly japanese: () => string;

  constructor(seed: number) {
    this.random = createRandom(seed);
    this.content = zipf(EN_CONTENT, this.random);
    this.japanese = zipf(JA_WORDS, this.random);
  }

  /** A content word, 40% of the time from the topic's own slice of the vocabulary. */
  word(topic: number): string {
    if (this.random() < 0.4)
      return EN_CONTENT[(topic * 7 + Math.floor(this.random() * 12)) % EN_CONTENT.length]!;
    return this.content();
  }

  jaWord(topic: number): string {
    if (this.random() < 0.4) return JA_WORDS[(topic * 5 + Math.floor(this.random() * 8)) % JA_WORDS.length]!;
    return this.japanese();
  }

  englishSentence(topic: number): string {
    const length = 8 + Math.floor(this.random() * 14);
    const words: string[] = [];
    for (let i = 0; i < length; i++) {
      const r = this.random();
      words.push(
        r < 0.35 ? pick(EN_FUNCTION, this.random) : r < 0.45 ? pick(EN_VERBS, this.random) : this.word(topic),
      );
    }
    const text = words.join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  }

  japaneseSentence(topic: number): string {
    const parts: string[] = [];
    const length = 3 + Math.floor(this.random() * 5);
    for (let i = 0; i < length; i++) parts.push(this.jaWord(topic), pick(JA_PARTICLES, this.random));
    parts.push(this.jaWord(topic), pick(JA_ENDINGS, this.random));
    return parts.join('');
  }

  paragraph(topic: number, japanese: boolean): string {
    const sentences = 2 + Math.floor(this.random() * 4);
    const out: string[] = [];
    for (let i = 0; i < sentences; i++) {
      // Japanese notes still carry some English (identifiers, product names), as real ones do.
      const ja = japanese ? this.random() < 0.85 : this.random() < 0.05;
      out.push(ja ? this.japaneseSentence(topic) : this.englishSentence(topic));
    }
    return out.join(japanese ? '' : ' ');
  }

  heading(topic: number, japanese: boolean): string {
    if (japanese) return `${this.jaWord(topic)}${pick(JA_PARTICLES, this.random)}${this.jaWord(topic)}`;
    const a = pick(EN_VERBS, this.random);
    return `${a[0]!.toUpperCase()}${a.slice(1)} the ${this.word(topic)} ${this.word(topic)}`;
  }
}

export interface SyntheticKbOptions {
  dir: string;
  /** Sections to write; each becomes one chunk (sections are 150–900 bytes, well inside the chunk limits). */
  chunks: number;
  seed?: number;
}

export interface SyntheticKbResult {
  dir: string;
  files: number;
  /** Sections written = chunks expected from the default chunking policy. */
  sections: number;
  bytes: number;
}

/** Write notes until `chunks` sections exist: ~8 sections per file, 20% Japanese files, 8 areas × 6 topics. */
export function writeSyntheticKb(options: SyntheticKbOptions): SyntheticKbResult {
  const writer = new Writer(options.seed ?? 20240611);
  const { random } = writer;
  let sections = 0;
  let files = 0;
  let bytes = 0;
  while (sections < options.chunks) {
    const area = Math.floor(random() * AREAS.length);
    const topic = area * TOPICS_PER_AREA + Math.floor(random() * TOPICS_PER_AREA);
    const japanese = random() < 0.2;
    const count = Math.min(options.chunks - sections, 4 + Math.floor(random() * 9));
    const title = writer.heading(topic, japanese);
    const tags = [...new Set([pick(TAGS, random), pick(TAGS, random), `t${topic}`])];
    const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
    const date = `${2019 + Math.floor(random() * 7)}-${month}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
    const lines = [
      `---`,
      `title: ${title}`,
      `date: ${date}`,
      `tags: [${tags.join(', ')}]`,
      `---`,
      `# ${title}`,
      '',
    ];
    lines.push(writer.paragraph(topic, japanese), '');
    for (let s = 1; s < count; s++) {
      lines.push(`${random() < 0.7 ? '##' : '###'} ${writer.heading(topic, japanese)}`, '');
      const paragraphs = 1 + Math.floor(random() * 3);
      for (let p = 0; p < paragraphs; p++) lines.push(writer.paragraph(topic, japanese), '');
    }
    const rel = path.join(AREAS[area]!, `topic-${topic}`, `note-${files}.md`);
    const full = path.join(options.dir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    const text = lines.join('\n');
    fs.writeFileSync(full, text);
    bytes += Buffer.byteLength(text);
    sections += count;
    files++;
  }
  return { dir: options.dir, files, sections, bytes };
}

export type QueryKind = 'en-short' | 'en-long' | 'ja-short' | 'ja-long' | 'mixed' | 'filtered';

export interface BenchQuery {
  kind: QueryKind;
  request: { query: string } & Record<string, unknown>;
}

/** `count` queries in fixed proportions: 20% en-short, 20% en-long, 15% ja-short, 15% ja-long, 10% mixed, 20% filtered. */
export function buildQueries(count: number, seed = 7): BenchQuery[] {
  const writer = new Writer(seed);
  const { random } = writer;
  const topicOf = () => Math.floor(random() * AREAS.length * TOPICS_PER_AREA);
  const plan: [QueryKind, number][] = [
    ['en-short', 0.2],
    ['en-long', 0.2],
    ['ja-short', 0.15],
    ['ja-long', 0.15],
    ['mixed', 0.1],
    ['filtered', 0.2],
  ];
  const out: BenchQuery[] = [];
  for (const [kind, share] of plan) {
    const n = Math.round(count * share);
    for (let i = 0; i < n; i++) {
      const topic = topicOf();
      if (kind === 'en-short')
        out.push({ kind, request: { query: oneOrTwo(() => writer.word(topic), random) } });
      else if (kind === 'en-long') {
        const q = `how do I ${pick(EN_VERBS, random)} the ${writer.word(topic)} ${writer.word(topic)} when the ${writer.word(topic)} ${pick(['fails', 'is slow', 'changes', 'times out'], random)}`;
        out.push({ kind, request: { query: q } });
      } else if (kind === 'ja-short')
        out.push({ kind, request: { query: oneOrTwo(() => writer.jaWord(topic), random, ' ') } });
      else if (kind === 'ja-long')
        out.push({ kind, request: { query: writer.japaneseSentence(topic).replace(/。$/, '') } });
      else if (kind === 'mixed')
        out.push({
          kind,
          request: { query: `${writer.word(topic)} ${writer.jaWord(topic)} ${writer.word(topic)}` },
        });
      else
        out.push({
          kind,
          request: { query: `${writer.word(topic)} ${writer.word(topic)}`, ...filterFor(i, topic, random) },
        });
    }
  }
  return out;
}

function oneOrTwo(word: () => string, random: () => number, joiner = ' '): string {
  return random() < 0.5 ? word() : `${word()}${joiner}${word()}`;
}

/** Rotate through the filter kinds search supports. */
function filterFor(i: number, topic: number, random: () => number): Record<string, unknown> {
  const area = AREAS[Math.floor(topic / TOPICS_PER_AREA)]!;
  switch (i % 5) {
    case 0:
      return { tagsAny: [pick(TAGS, random), pick(TAGS, random)] };
    case 1:
      return { pathGlobs: [`${area}/**`] };
    case 2:
      return { category: area };
    case 3:
      return { dateFrom: '2024-01-01' };
    default:
      return { pathGlobs: [`${area}/topic-${topic}/**`], tagsAny: [`t${topic}`] };
  }
}
