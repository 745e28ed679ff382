// What a Parquet reader that reads whole row groups of some columns moves, from each file's
// own footer as hyparquet decodes it (independent of trainbench's writer and of its
// manifest): per row group, the byte range of every selected column chunk (from its
// dictionary page, if any, else its first data page, total_compressed_size bytes long).
// tests/interop/parquet_reads_test.sh compares these with what `trainbench run` read.
//
// Usage: node column_chunks.mjs TRANSFER_SIZE COLUMN[,COLUMN...] FILE...
// Prints one line of totals over the files: "groups=<row groups> chunks=<selected chunks>
// bytes=<their bytes> pieces=<reads of at most TRANSFER_SIZE bytes each chunk takes>".
import { readFileSync } from 'node:fs'
import { parquetMetadata } from 'hyparquet'

const [transfer, names, ...files] = process.argv.slice(2)
const size = Number(transfer)
const selected = new Set(names.split(','))
let groups = 0, chunks = 0, bytes = 0, pieces = 0
for (const file of files) {
  const data = readFileSync(file)
  const meta = parquetMetadata(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength))
  for (const group of meta.row_groups) {
    groups++
    const seen = new Set()
    for (const chunk of group.columns) {
      const m = chunk.meta_data
      const name = m.path_in_schema[0]  // a list column's one leaf is name.list.element
      seen.add(name)
      if (!selected.has(name)) continue
      const length = Number(m.total_compressed_size)
      const start = Number(m.dictionary_page_offset ?? m.data_page_offset)
      if (start < 4 || start + length > data.length) throw new Error(`${file}: chunk ${name} outside the file`)
      chunks++
      bytes += length
      pieces += Math.ceil(length / size)
    }
    for (const name of selected)
      if (!seen.has(name)) throw new Error(`${file}: no column ${name}`)
  }
}
console.log(`groups=${groups} chunks=${chunks} bytes=${bytes} pieces=${pieces}`)
