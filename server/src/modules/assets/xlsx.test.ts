import { describe, expect, it } from 'vitest'
import { unzip } from '../../../test/helpers/unzip.ts'
import { workbook } from './xlsx.ts'

describe(workbook, () => {
  it('writes a workbook whose sheet holds the header and rows, numbers as numbers', () => {
    const files = unzip(
      workbook(
        'Scores',
        ['Team', 'Score'],
        [
          ['a & b <c>', 1050],
          [null, 0],
        ],
      ),
    )
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ])
    const sheet = files['xl/worksheets/sheet1.xml']!
    expect(sheet).toContain('<c r="A1" s="1" t="inlineStr"><is><t xml:space="preserve">Team</t></is></c>')
    expect(sheet).toContain('<t xml:space="preserve">a &amp; b &lt;c&gt;</t>')
    expect(sheet).toContain('<c r="B2"><v>1050</v></c>')
    expect(sheet).toContain('<c r="A3"/>')
  })

  it('stores formula-looking text as text and drops characters XML cannot hold', () => {
    const sheet = unzip(workbook('S', ['x'], [['=HYPERLINK("http://evil")'], ['a\u0001b']]))[
      'xl/worksheets/sheet1.xml'
    ]!
    expect(sheet).toContain(
      't="inlineStr"><is><t xml:space="preserve">=HYPERLINK(&quot;http://evil&quot;)</t>',
    )
    expect(sheet).not.toContain('<f>')
    expect(sheet).toContain('>ab<')
  })
})
