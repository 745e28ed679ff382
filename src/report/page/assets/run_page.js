  // ---- header
  const first = runs[0].summary;
  document.getElementById('subtitle').textContent = runs.length === 1
      ? `${first.workload} ` +
        (ckptOnly(runs[0]) ? `checkpointing over ${first.num_ranks} rank(s)`
                           : `on ${first.num_accelerators} accelerator(s)`) +
        `, ${first.start} - ${first.end}, ${runs[0].folder}`
      : `comparison of ${runs.length} runs`;
  if (runs.length > 1) {
    const s = section('Runs');
    table(s, ['run', 'workload', 'accelerators', 'hosts', 'engine', 'start'],
          runs.map((r, i) => [el('span', {}, el('span', {class: 'swatch',
                                                         style: 'background:' + color(i)}),
                                label(r, i)),
                              r.summary.workload, r.summary.num_accelerators,
                              r.summary.num_hosts, r.summary.read_engine, r.summary.start]));
  }

  // ---- verdicts and warnings
  const verdicts = section('Verdict');
  const vbox = el('div', {class: 'verdicts', id: 'verdicts'});
  verdicts.append(vbox);
  runs.forEach((r, i) => {
    const s = r.summary;
    let cls = 'na', head = 'AU not meaningful',
        text = s.au_not_meaningful_reason || 'storage only (computation_time 0)';
    if (s.complete === false && s.au_meaningful) {
      // A run that did not end has no verdict (older summaries said passed all the same).
      head = `NO VERDICT: AU ${num(m(r).train_au_mean_percentage, 2)}% so far`;
      text = `target ${num(s.au_target_percentage, 0)}%, ` +
             `${s.epochs_completed}/${s.epochs} epochs`;
    } else if (s.passed === true || s.passed === false) {
      cls = s.passed ? 'pass' : 'fail';
      head = (s.passed ? 'PASS' : 'FAIL') + `: AU ${num(m(r).train_au_mean_percentage, 2)}%`;
      text = `target ${num(s.au_target_percentage, 0)}%, ` +
             `${s.epochs_completed}/${s.epochs} epochs`;
    }
    let figures = `${num(m(r).train_throughput_mean_samples_per_second, 1)} samples/s, ` +
                  `${num(m(r).train_io_mean_MB_per_second, 1)} MB/s`;
    if (ckptOnly(r)) {
      head = 'Checkpointing';
      text = `${(s.checkpoints || []).length} checkpoint operation(s) over ${s.num_ranks} rank(s)`;
      figures = `write ${num(ckptRate(r, 'write'), 3)} GB/s, read ${num(ckptRate(r, 'read'), 3)} GB/s`;
    }
    if (s.killed) {  // no summary.json: only the time series so far
      head = 'INCOMPLETE';
      text = '';
      figures = '';
    }
    if (!s.complete) text += ` - INCOMPLETE: ${s.stop_reason}`;
    const v = el('div', {class: 'verdict ' + cls, 'data-passed': String(s.passed)},
                 el('b', {}, head), text, el('div', {'data-figures': ''}, figures));
    if (runs.length > 1) v.prepend(el('div', {}, label(r, i)));
    vbox.append(v);
  });
  const workloads = [...new Set(runs.map((r) => r.summary.workload))];
  if (workloads.length > 1)
    verdicts.append(el('p', {class: 'warning', id: 'different-workloads'},
                       `these runs are of different workloads (${workloads.join(', ')}): ` +
                       'the comparison sets unlike runs side by side'));
  runs.forEach((r, i) => {
    const s = r.summary, c = s.cache || {};
    const warn = (text) => verdicts.append(el('p', {class: 'warning'},
                                                (runs.length > 1 ? label(r, i) + ': ' : '') + text));
    if (c.fits_in_page_cache)
      warn(pageCacheNote('the dataset', c.dataset_bytes, c.host_memory_bytes));
    // The share told by the method that sees the reads (summary.json's cache.method): on a
    // network or FUSE mount /proc/self/io counts none, so its device figure would call a
    // cold run cached. Summaries before the method have the device figure alone.
    if (c.method === undefined) {
      if (c.device_read_available && c.bytes_read > 0 && c.device_read_fraction < 0.5)
        warn(`storage devices delivered ${num(100 * c.device_read_fraction, 1)}% of the ` +
             `${bytes(c.bytes_read)} read: the rest came from the page cache`);
    } else if (c.page_cache_fraction !== null && c.bytes_read > 0 && c.page_cache_fraction > 0.5) {
      warn(`the page cache served ${num(100 * c.page_cache_fraction, 1)}% of the ` +
           `${bytes(c.bytes_read)} read (${c.method}: ${c.method_reason})`);
    }
    if (c.dropped_before_run) verdicts.append(el('p', {}, 'page caches dropped before the run'));
    // Each host's file system under the data and checkpoint folders; ranks on several hosts
    // over a local one are flagged (each host may read a disk of its own).
    const fs = s.filesystems || {};
    for (const [what, rows] of [['data', fs.data], ['checkpoints', fs.checkpoint]]) {
      if (!Array.isArray(rows) || !rows.length) continue;
      const text = rows.map((h) => `${h.host}: ${h.fs_type} (${h.source}) at ${h.mount_point}`)
                       .join('; ');
      const p = el('p', {'data-note': 'filesystem-' + what},
                   (runs.length > 1 ? label(r, i) + ': ' : '') + `${what} on ${text}`);
      verdicts.append(p);
      if (rows.length > 1 && rows.some((h) => !h.network))
        warn(`the ranks span ${rows.length} hosts with the ${what} on a local file system: ` +
             'each host may have read a disk of its own, not one storage');
    }
    if (!s.complete) warn(`incomplete run: ${s.stop_reason}`);
    if (s.ranks_missing) warn(`${s.ranks_missing} rank(s) missing from these results`);
    if (s.unwritten_files) warn(`files that could not be written: ${s.unwritten_files.join(', ')}`);
    if (!r.timeseries && !ckptOnly(r))
      warn('no timeseries.csv: time-series charts are empty for this run');
  });

  // ---- charts
  const charts = el('div', {class: 'charts'});
  section('Charts').append(charts);
  const marks = phaseMarksOf(runs.find((r) => r.timeseries));
  const timeAxis = {type: 'linear', title: {display: true, text: 'elapsed (s)'}, min: 0};

  if (runs.every(ckptOnly)) {
    // Checkpoint throughput per operation, the figure of a checkpointing workload.
    const n = Math.max(...runs.map((r) => (r.summary.checkpoints || []).length), 0);
    // Each by the checkpoint it wrote or read (its step; its epoch where not the first), not
    // by its place in the list: the reads come after every write.
    const names = Array.from({length: n}, (_, k) => {
      const c = (runs.find((r) => (r.summary.checkpoints || []).length > k).summary.checkpoints)[k];
      return `${c.operation} step ${c.step}` + (c.epoch > 1 ? ` (epoch ${c.epoch})` : '');
    });
    chart(charts, 'checkpoints', 'Checkpoint throughput (GB/s)', {type: 'bar',
          data: {labels: names, datasets: runs.map((r, i) => ({
            label: label(r, i), backgroundColor: color(i),
            data: (r.summary.checkpoints || []).map((k) => k.GB_per_second)}))},
          options: {scales: {x: {title: {display: true, text: 'checkpoint operation'}},
                             y: {beginAtZero: true, title: {display: true, text: 'GB/s'}}}}},
          'Bytes of each checkpoint over the slowest rank\'s seconds.');
  } else {
    // AU per epoch
    const epochs = Math.max(...runs.map((r) => (m(r).train_au_percentage || []).length), 0);
    const auLabels = Array.from({length: epochs}, (_, k) => String(k + 1));
    const auSets = runs.map((r, i) => ({type: 'bar', label: label(r, i),
                                       data: (m(r).train_au_percentage || []).slice(),
                                       backgroundColor: color(i)}));
    auSets.push({type: 'line', label: 'target', data: auLabels.map(() => first.au_target_percentage),
                 borderColor: '#444', borderDash: [6, 4], pointRadius: 0, fill: false});
    chart(charts, 'au', 'AU per epoch (%)', {type: 'bar', data: {labels: auLabels, datasets: auSets},
          options: {scales: {x: {title: {display: true, text: 'epoch'}},
                             y: {min: 0, max: 100, title: {display: true, text: 'AU %'}}}}},
          'AU = compute time / elapsed time per epoch, first steps excluded (MLPerf Storage).');

    function series(name, scale, key) {
      return runs.filter((r) => r.timeseries).map((r) => {
        const i = runs.indexOf(r), t = r.timeseries;
        return {label: label(r, i) + (key ? ' ' + key : ''), borderColor: color(i),
                backgroundColor: color(i), pointRadius: 0, borderWidth: 1.5,
                data: t.elapsed_s.map((x, k) => ({x: x, y: t[name][k] * scale}))};
      });
    }
    function timeChart(id, title, sets, yTitle, note, extra) {
      if (!runs.some((r) => r.timeseries))
        return placeholder(charts, id, title, 'no time series in these results');
      chart(charts, id, title, {type: 'line', data: {datasets: sets},
            options: Object.assign({scales: {x: timeAxis, y: {beginAtZero: true,
                                    title: {display: true, text: yTitle}}},
                                    plugins: {phaseMarks: marks}}, extra || {})}, note);
    }
    timeChart('samples', 'Throughput: samples/s', series('samples_per_second', 1), 'samples/s',
              'Samples of the steps that ended in each interval.');
    timeChart('mbps', 'Throughput: MB/s read', series('io_MB_per_second', 1), 'MB/s (10^6 B/s)',
              'Bytes the reads returned in each interval.');
    timeChart('wait', 'Data wait: share of accelerator time waiting for data',
              series('data_wait_share', 100), '% of accelerator time',
              'The mean number of accelerators waiting / accelerators, per interval.');
    const latSets = [];
    runs.forEach((r, i) => {
      if (!r.timeseries) return;
      const t = r.timeseries;
      const pts = (name) => t.elapsed_s.map((x, k) => ({x: x, y: t.reads[k] > 0 ? t[name][k] : null}));
      // Points shown: an interval without reads leaves a gap, and a lone interval a dot.
      latSets.push({label: label(r, i) + ' p99', data: pts('read_latency_p99_ms'),
                    borderColor: color(i), backgroundColor: color(i), pointRadius: 1.5,
                    borderWidth: 1.5, spanGaps: false});
      latSets.push({label: label(r, i) + ' p50', data: pts('read_latency_p50_ms'),
                    borderColor: color(i), backgroundColor: color(i), pointRadius: 1,
                    borderWidth: 1, borderDash: [5, 3], spanGaps: false});
    });
    timeChart('latency', 'Read latency per interval (ms)', latSets, 'ms',
              'p50 (dashed) and p99 of the reads completed in each interval' +
              (runs.some((r) => r.timeseries_rank === 'all')
               ? '; over several ranks, the worst rank\'s.' : '.'));

    // Latency distribution from summary.json's read_latency_histogram.
    const hists = runs.map((r) => r.summary.read_latency_histogram);
    if (!hists.some((h) => h && h.count > 0)) {
      placeholder(charts, 'cdf', 'Read latency CDF', 'no read-latency histogram in these results');
    } else {
      const sets = [];
      runs.forEach((r, i) => {
        const h = hists[i];
        if (!h || !h.count) return;
        let seen = 0;
        const data = h.high_ms.map((x, k) => {
          seen += h.counts[k];
          return {x: x, y: seen / h.count};
        });
        sets.push({label: label(r, i), data: data, borderColor: color(i),
                   backgroundColor: color(i), pointRadius: 0, borderWidth: 1.5, stepped: 'before'});
      });
      chart(charts, 'cdf', 'Read latency CDF', {type: 'line', data: {datasets: sets},
            options: {scales: {x: {type: 'logarithmic', title: {display: true, text: 'ms'}},
                               y: {min: 0, max: 1, title: {display: true,
                                                           text: 'fraction of reads <= x'}}}}},
            'Every read of the run (summary.json read_latency_histogram; < 1.6% bucket width).');
      // The same buckets gathered ten to a decade, as a histogram.
      const bin = (ms) => Math.floor(10 * Math.log10(ms) + 1e-9);
      let lo = Infinity, hi = -Infinity;
      hists.forEach((h) => h && h.low_ms.forEach((x) => {
        const b = bin(Math.max(x, 1e-6));
        lo = Math.min(lo, b);
        hi = Math.max(hi, b);
      }));
      const labels = [];
      for (let b = lo; b <= hi; ++b) labels.push(num(Math.pow(10, b / 10), b < -10 ? 4 : b < 0 ? 3 : 2));
      const hsets = [];
      runs.forEach((r, i) => {
        const h = hists[i];
        if (!h || !h.count) return;
        const share = labels.map(() => 0);
        h.low_ms.forEach((x, k) => { share[bin(Math.max(x, 1e-6)) - lo] += 100 * h.counts[k] / h.count; });
        hsets.push({label: label(r, i), data: share, backgroundColor: color(i)});
      });
      chart(charts, 'histogram', 'Read latency histogram', {type: 'bar',
            data: {labels: labels, datasets: hsets},
            options: {scales: {x: {title: {display: true, text: 'ms (bin start, 10 bins a decade)'}},
                               y: {beginAtZero: true, title: {display: true, text: '% of reads'}}}}});
    }

  }

  // ---- comparison
  if (runs.length > 1) {
    const s = section('Comparison (against run 1)');
    const rows = [
      ['samples/s (mean over epochs)', (r) => m(r).train_throughput_mean_samples_per_second, 1, 1],
      ['MB/s (mean over epochs)', (r) => m(r).train_io_mean_MB_per_second, 1, 1],
      ['AU % (mean)', (r) => m(r).train_au_mean_percentage, 2, 1],
      ['read latency p50 (ms)', (r) => r.summary.read_latency_ms.p50, 3, -1],
      ['read latency p99 (ms)', (r) => r.summary.read_latency_ms.p99, 3, -1],
      ['read latency p99.9 (ms)', (r) => r.summary.read_latency_ms.p999, 3, -1],
      ['data wait share (%)', (r) => 100 * r.summary.io_characterization.data_wait_fraction, 2, -1],
      ['CPU us per sample', (r) => r.summary.cpu_us_per_sample, 2, -1],
      ['run seconds', (r) => r.summary.run_seconds, 2, 0],
    ];
    const t = el('table', {id: 'comparison'});
    t.append(el('tr', {}, el('th', {}, 'metric'), ...runs.map((r, i) => el('th', {}, label(r, i)))));
    for (const [name, get, digits, better] of rows) {
      const base = get(runs[0]);
      const tr = el('tr', {'data-metric': name}, el('td', {}, name));
      runs.forEach((r, i) => {
        const v = get(r);
        let text = num(v, digits), cls = '';
        if (i > 0 && base) {
          const delta = 100 * (v - base) / base;
          text += ` (${delta >= 0 ? '+' : ''}${num(delta, 1)}%)`;
          if (better && Math.abs(delta) >= 0.05) cls = (delta * better > 0) ? 'better' : 'worse';
        }
        tr.append(el('td', Object.assign({'data-value': String(v)}, cls ? {class: cls} : {}), text));
      });
      t.append(tr);
    }
    s.append(t);
  }

  // ---- per-run tables
  runs.forEach((r, i) => {
    const s = r.summary;
    const sec = section(runs.length > 1 ? `Details: ${label(r, i)}` : 'Details');
    if (!ckptOnly(r)) {
      sec.append(el('h3', {}, 'Phases'));
      table(sec, ['phase', 'epoch', 'seconds', 'steps', 'samples/s', 'MB/s', 'AU %', 'AU min %',
                  'data wait s', 'complete'],
            (s.phases || []).map((p) => [p.kind, p.epoch, num(p.duration_s, 2), p.steps,
                                         num(p.samples_per_second, 1), num(p.io_MB_per_second, 1),
                                         num(p.au_percentage, 2), num(p.au_min_percentage, 2),
                                         num(p.data_wait_s, 3), p.complete ? 'yes' : 'no']));
      const lat = s.read_latency_ms || {};
      sec.append(el('h3', {}, 'Latency (ms)'));
      const latRows = [['read', lat]];
      if (s.data_wait_ms) latRows.push(['data wait per step', s.data_wait_ms]);
      for (const [op, l] of Object.entries(s.storage_latency_ms || {})) latRows.push([op, l]);
      table(sec, ['operation', 'count', 'mean', 'p50', 'p90', 'p99', 'p99.9', 'max'],
            latRows.map(([name, l]) => [name, l.count, num(l.mean, 3), num(l.p50, 3), num(l.p90, 3),
                                        num(l.p99, 3), num(l.p999, 3), num(l.max, 3)]),
            i === 0 ? 'latency-table' : undefined);
      // A host's page cache share, with the method that told it (none: unknown).
      const cacheShare = (h) => {
        const how = h.cache_method ? ` (${h.cache_method})` : '';
        if (h.page_cache_fraction === null || h.page_cache_fraction === undefined)
          return 'unknown' + how;
        return num(100 * h.page_cache_fraction, 1) + how;
      };
      if (s.hosts) {
        sec.append(el('h3', {}, 'Hosts'));
        table(sec, ['host', 'ranks', 'accelerators', 'samples/s', 'MB/s', 'AU %', 'AU min %',
                    'page cache %', 'memory', 'fits in cache'],
              s.hosts.map((h) => [h.host, h.ranks, h.accelerators, num(h.samples_per_second, 1),
                                  num(h.io_MB_per_second, 1), num(h.au_mean_percentage, 2),
                                  num(h.au_min_percentage, 2), cacheShare(h),
                                  bytes(h.host_memory_bytes), h.fits_in_page_cache ? 'yes' : 'no']),
              i === 0 ? 'hosts-table' : undefined);
      }
      const io = s.io_characterization || {};
      sec.append(el('h3', {}, 'I/O characterization (Darshan POSIX counters)'));
      table(sec, ['counter', 'value'],
            ['POSIX_OPENS', 'POSIX_READS', 'POSIX_BYTES_READ', 'POSIX_SEQ_READS',
             'POSIX_CONSEC_READS', 'POSIX_MAX_BYTE_READ_SIZE', 'files_read', 'files_reread']
                .map((k) => [k, num(io[k], 0)])
                .concat([['data_wait_fraction', num(io.data_wait_fraction, 4)]]));
      table(sec, ['access size', 'reads'],
            Object.entries(io.access_sizes || {}).filter(([, v]) => v > 0)
                .map(([k, v]) => [k.replace('POSIX_SIZE_READ_', ''), num(v, 0)]));
      const c = s.cache || {};
      sec.append(el('h3', {}, 'Cache honesty'));
      const told = c.method === undefined ? [] : [
        ['told by', `${c.method}: ${c.method_reason}`],
        ['bytes from storage', c.storage_read_bytes === null ? 'unknown' : bytes(c.storage_read_bytes)],
        ['page cache share of reads', c.page_cache_fraction === null ? 'unknown'
                                      : num(100 * c.page_cache_fraction, 1) + '%']];
      table(sec, ['figure', 'value'],
            [['bytes asked for', bytes(c.requested_bytes)], ['bytes read', bytes(c.bytes_read)],
             ...told,
             ['bytes from devices (/proc/self/io)',
              c.device_read_available ? bytes(c.device_read_bytes) : 'unknown'],
             ['device share of reads', num(100 * c.device_read_fraction, 1) + '%'],
             ['dataset', bytes(c.dataset_bytes)], ['host memory', bytes(c.host_memory_bytes)],
             ['dataset / memory', num(c.dataset_to_memory_ratio, 2)],
             ['fits in page cache', c.fits_in_page_cache ? 'yes' : 'no']]);
    }
    if ((s.checkpoints || []).length) {
      sec.append(el('h3', {}, 'Checkpoints'));
      table(sec, ['operation', 'epoch', 'step', 'bytes', 'files', 'ranks', 'seconds', 'GB/s'],
            s.checkpoints.map((k) => [k.operation, k.epoch, k.step, bytes(k.bytes), k.files,
                                      k.ranks, num(k.seconds, 3), num(k.GB_per_second, 3)]),
            i === 0 ? 'checkpoints-table' : undefined);
    }
    if (Object.keys(s.storage_counters || {}).length) {
      sec.append(el('h3', {}, 'Storage counters'));
      table(sec, ['counter', 'value'],
            Object.entries(s.storage_counters).map(([k, v]) => [k, num(v, 3)]));
    }
    sec.append(el('h3', {}, 'Run'));
    // A checkpointing workload reads no dataset: no format, batch, steps or files to show.
    const dataset = ckptOnly(r) ? [] :
        [['format', s.format], ['read engine', s.read_engine], ['batch size', s.batch_size],
         ['steps per epoch', s.steps_per_epoch],
         ['train files / samples', `${s.train_files} / ${s.train_samples}`]];
    table(sec, ['field', 'value'],
          [['workload', s.workload], ['accelerators', s.num_accelerators],
           ['hosts / ranks', `${s.num_hosts} / ${s.num_ranks}`]].concat(dataset, [
           ['run seconds', num(s.run_seconds, 2)], ['CPU seconds', num(s.cpu_seconds, 2)]],
           ckptOnly(r) ? [] : [['CPU us per sample', num(s.cpu_us_per_sample, 2)]], [
           ['peak memory', bytes(s.peak_rss_bytes)], ['version', s.trainbench_version],
           ['results folder', r.folder]]),
          i === 0 ? 'run-table' : undefined);
    const d = el('details', {});
    d.append(el('summary', {}, 'config.yaml (the resolved workload)'),
             el('pre', {class: 'config'}, r.config_yaml || '(no config.yaml in the folder)'));
    sec.append(d);
  });
  document.body.setAttribute('data-report-ready', 'true');
})();
