// An independent reader of trainbench's Parquet files (tests/interop/parquet.sh): hyparquet,
// a pure-JS Parquet implementation, decodes each file, and every value is compared with
// the values trainbench's documented rule gives (src/formats/parquet/parquet_columns.h), recomputed
// here from scratch: column c of a file with seed s holds FillRandom(Mix(s, c), ...)
// (src/common/random.cc: xorshift128+ lanes over 4 KiB blocks), floats mapped into [0, 1).
// The file's seed must be the plan's (Mix(Mix(train.seed, 1 train | 2 valid), index)).
//
// Usage: node read_parquet.mjs TRAIN_SEED SPLIT:INDEX:ROWS:ROW_GROUP_ROWS:CODEC:COLUMNS FILE ...
//   (one spec per file, before it); COLUMNS is "name:dtype:size,...".
// Prints one line per file: "<file> rows=<n> groups=<g> codec=<c> sha256=<hex of all values>".
import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

const M64 = (1n << 64n) - 1n

function mix(x) {
  x = (x + 0x9e3779b97f4a7c15n) & M64
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & M64
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & M64
  return x ^ (x >> 31n)
}
const rotl = (x, k) => ((x << BigInt(k)) | (x >> BigInt(64 - k))) & M64
const mix2 = (a, b) => mix(mix(a) ^ rotl(mix((b + 0x632be59bd9b4e019n) & M64), 17))

// One 4 KiB block: eight xorshift128+ lanes seeded from (key, block), lane-interleaved.
function fillBlock(key, block, view, at) {
  const a = [], b = []
  for (let l = 0; l < 8; l++) {
    a[l] = mix2(key ^ block, BigInt(l))
    b[l] = mix(a[l])
  }
  for (let w = 0; w < 512; w += 8) {
    for (let l = 0; l < 8; l++) {
      let x = a[l]
      const y = b[l]
      a[l] = y
      x ^= (x << 23n) & M64
      b[l] = x ^ y ^ (x >> 17n) ^ (y >> 26n)
      view.setBigUint64(at + 8 * (w + l), (b[l] + y) & M64, true)
    }
  }
}

// `size` bytes of seed's stream from `offset`.
function fillRandom(seed, offset, size) {
  const key = mix(seed)
  const first = Math.floor(offset / 4096), last = Math.floor((offset + size + 4095) / 4096)
  const blocks = new Uint8Array((last - first) * 4096)
  const view = new DataView(blocks.buffer)
  for (let k = first; k < last; k++) fillBlock(key, BigInt(k), view, (k - first) * 4096)
  const skip = offset - first * 4096
  return blocks.subarray(skip, skip + size)
}

const ITEM = { uint8: 1, int8: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, uint64: 8, int64: 8,
               float16: 2, float32: 4, float64: 8 }
// The physical type pyarrow (and so trainbench, as DLIO's generator) gives an element of the dtype.
const PHYSICAL = { uint8: 'INT32', int8: 'INT32', uint16: 'INT32', int16: 'INT32', uint32: 'INT32',
                   int32: 'INT32', uint64: 'INT64', int64: 'INT64', float16: 'FIXED_LEN_BYTE_ARRAY',
                   float32: 'FLOAT', float64: 'DOUBLE' }

// Column `index`'s values for all `rows`, as little-endian bytes.
function expectedColumn(seed, index, dtype, size, rows) {
  const bytes = fillRandom(mix2(seed, BigInt(index)), 0, rows * size * ITEM[dtype]).slice()
  const v = new DataView(bytes.buffer)
  const n = bytes.length / ITEM[dtype]
  if (dtype === 'float32') for (let i = 0; i < n; i++) v.setFloat32(4 * i, (v.getUint32(4 * i, true) >>> 8) * 2 ** -24, true)
  if (dtype === 'float64') for (let i = 0; i < n; i++) v.setFloat64(8 * i, Number(v.getBigUint64(8 * i, true) >> 11n) * 2 ** -53, true)
  if (dtype === 'float16') {
    for (let i = 0; i < n; i++) {
      const k = v.getUint16(2 * i, true) >>> 6  // value k x 2^-10: binary16 by hand
      let h = 0
      if (k > 0) {
        const e = Math.floor(Math.log2(k))      // k = 2^e x 1.m
        h = ((e - 10 + 15) << 10) | ((k << (10 - e)) & 0x3ff)
      }
      v.setUint16(2 * i, h, true)
    }
  }
  return bytes
}

// A decoded element as the dtype's little-endian bytes (DataView's setters wrap, so signed
// and unsigned decodings give the same bytes).
function elementBytes(value, dtype) {
  if (value instanceof Uint8Array) return value
  const out = new Uint8Array(ITEM[dtype])
  const v = new DataView(out.buffer)
  if (dtype === 'float32') v.setFloat32(0, value, true)
  else if (dtype === 'float64') v.setFloat64(0, value, true)
  else if (dtype === 'float16') {  // k x 2^-10, exact in binary16: by hand
    const k = Math.round(value * 1024)
    let h = 0
    if (k > 0) {
      const e = Math.floor(Math.log2(k))
      h = ((e - 10 + 15) << 10) | ((k << (10 - e)) & 0x3ff)
    }
    v.setUint16(0, h, true)
  } else if (ITEM[dtype] === 8) v.setBigInt64(0, BigInt.asIntN(64, BigInt(value)), true)
  else if (ITEM[dtype] === 4) v.setInt32(0, Number(value), true)
  else if (ITEM[dtype] === 2) v.setInt16(0, Number(value), true)
  else v.setInt8(0, Number(value))
  return out
}

// A row's value (a list of `size` elements, or a scalar) as bytes.
function valueBytes(value, dtype, size) {
  const items = size === 1 ? [value] : value
  if (!Array.isArray(items) || items.length !== size) return new Uint8Array(0)
  return Buffer.concat(items.map((x) => elementBytes(x, dtype)))
}

// The top-level columns of a flattened schema: [{element, leaf, depth}], leaf the first leaf
// under it.
function topColumns(schema) {
  const out = []
  let i = 1
  const skip = (at) => {  // index after the subtree at `at`
    let next = at + 1
    for (let c = 0; c < (schema[at].num_children || 0); c++) next = skip(next)
    return next
  }
  while (i < schema.length) {
    let leaf = i
    const path = [schema[i]]
    while (schema[leaf].num_children) { leaf++; path.push(schema[leaf]) }
    out.push({ element: schema[i], path })
    i = skip(i)
  }
  return out
}

function fail(file, what) {
  console.error(`FAIL: ${file}: ${what}`)
  process.exit(1)
}

const trainSeed = BigInt(process.argv[2])
const args = process.argv.slice(3)
for (let a = 0; a < args.length; a += 2) {
  const spec = args[a].split(':')
  const [split, index, rowsText, groupText, codec] = spec
  const columnsSpec = spec.slice(5).join(':')
  const file = args[a + 1]
  const rows = Number(rowsText), groupRows = Number(groupText)
  const columns = columnsSpec.split(',').map((c) => {
    const [name, dtype, size] = c.split(':')
    return { name, dtype, size: Number(size) }
  })
  const data = readFileSync(file)
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
  const meta = parquetMetadata(buffer)

  // Shape: rows, row groups, codec, schema (names, physical types, DLIO's layout).
  if (Number(meta.num_rows) !== rows) fail(file, `${meta.num_rows} rows, expected ${rows}`)
  const groups = meta.row_groups.map((g) => Number(g.num_rows))
  const wantGroups = []
  for (let r = 0; r < rows; r += groupRows) wantGroups.push(Math.min(groupRows, rows - r))
  if (groups.join() !== wantGroups.join()) fail(file, `row groups of ${groups} rows, expected ${wantGroups}`)
  const schema = topColumns(meta.schema)
  if (schema.map((s) => s.element.name).join() !== columns.map((c) => c.name).join())
    fail(file, `columns ${schema.map((s) => s.element.name)}, expected ${columns.map((c) => c.name)}`)
  columns.forEach((c, i) => {
    // DLIO's generator's layout: an OPTIONAL scalar, or for size > 1 a LIST
    // (optional group (LIST) / repeated group list / optional element).
    const { path } = schema[i]
    const want = c.size === 1 ? 'OPTIONAL' : 'OPTIONAL,REPEATED,OPTIONAL'
    if (path.map((p) => p.repetition_type).join() !== want)
      fail(file, `column ${c.name} is ${path.map((p) => p.repetition_type)}, expected ${want}`)
    if (c.size > 1 && path[0].converted_type !== 'LIST') fail(file, `column ${c.name} is not a LIST`)
    const leaf = path[path.length - 1]
    if (leaf.type !== PHYSICAL[c.dtype]) fail(file, `column ${c.name} is ${leaf.type}, expected ${PHYSICAL[c.dtype]}`)
    c.bytes = c.size * ITEM[c.dtype]
  })
  for (const g of meta.row_groups)
    for (const chunk of g.columns)
      if (chunk.meta_data.codec !== codec) fail(file, `codec ${chunk.meta_data.codec}, expected ${codec}`)

  // The seed: the plan's for this file, and what the footer records.
  const seed = mix2(mix2(trainSeed, split === 'train' ? 1n : 2n), BigInt(index))
  const kv = Object.fromEntries((meta.key_value_metadata || []).map((e) => [e.key, e.value]))
  if (kv['trainbench.seed'] !== seed.toString()) fail(file, `trainbench.seed ${kv['trainbench.seed']}, the plan's is ${seed}`)

  // Every value, decoded by hyparquet, against the rule's.
  const objects = await parquetReadObjects({ file: buffer, compressors, utf8: false })
  if (objects.length !== rows) fail(file, `hyparquet read ${objects.length} rows`)
  const hash = createHash('sha256')
  columns.forEach((c, i) => {
    const want = expectedColumn(seed, i, c.dtype, c.size, rows)
    for (let r = 0; r < rows; r++) {
      const got = valueBytes(objects[r][c.name], c.dtype, c.size)
      const expect = want.subarray(r * c.bytes, (r + 1) * c.bytes)
      if (got.length !== c.bytes || Buffer.compare(Buffer.from(got), Buffer.from(expect)) !== 0)
        fail(file, `column ${c.name} row ${r}: decoded ${Buffer.from(got).toString('hex').slice(0, 32)}..., the rule gives ${Buffer.from(expect).toString('hex').slice(0, 32)}...`)
      hash.update(got)
    }
  })
  console.log(`${file} rows=${rows} groups=${groups.length} codec=${codec} sha256=${hash.digest('hex')}`)
}
