// Why the settings leave a stored document out: a parser not enabled, or a folder in exclude_dirs.
import { describe, expect, it } from 'vitest';
import { describeExclusions, settingsExclusionMatcher } from '../../src/app/indexing/settings-exclusion.js';

describe('settings exclusion', () => {
  const exclusionOf = settingsExclusionMatcher({ extensions: ['md', 'TXT'], excludeDirs: ['Drafts'] });

  it('admits enabled extensions case-insensitively outside excluded folders', () => {
    expect(exclusionOf('notes/a.md')).toBeNull();
    expect(exclusionOf('A.MD')).toBeNull();
    expect(exclusionOf('b.txt')).toBeNull();
  });

  it('names the parser of an extension that is not enabled, and the excluded folder first', () => {
    expect(exclusionOf('report.pdf')).toEqual({ setting: 'parsers', parser: 'pdf' });
    expect(exclusionOf('src/main.ts')).toEqual({ setting: 'parsers', parser: 'code' });
    expect(exclusionOf('x/drafts/plan.md')).toEqual({ setting: 'exclude_dirs', folder: 'drafts' });
    expect(exclusionOf('drafts.md')).toBeNull();
  });

  it('describes the drops, largest groups first', () => {
    const text = describeExclusions(['a.pdf', 'b.docx', 'c.pdf', 'drafts/d.md'].map((p) => exclusionOf(p)!));
    expect(text).toBe(
      '2 pdf, 1 docx (parser not enabled: [parsers] enabled, [parsers.code] languages); 1 under "drafts" (folder in exclude_dirs)',
    );
  });
});
