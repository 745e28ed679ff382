  const kind = runs[0].kind || 'run';
  if (kind !== 'run' && kind !== 'checkpoint') {
    const S = (r) => r.summary;
    const at = (o, path) => path.split('.').reduce((x, k) => (x == null ? undefined : x[k]), o);
    // A sweep's probe or point says its verdict; summaries written before it did, by its flags.
    const verdictOf = (p) =>
        p.verdict || (!p.au_meaningful ? 'no verdict' : p.passed ? 'pass' : 'FAIL');
    const kindName = {datagen: 'datagen', stage: 'stage', train: 'training',
                      staged_train: 'staged training', sweep: 'sweep',
                      replay: 'replay', sai3: 'sai3-bench workload',
                      fidelity: 'fidelity study', mix: 'mix'}[kind] || kind;
    const staged = kind === 'stage' || kind === 'staged_train';
    document.body.setAttribute('data-kind', kind);
    document.getElementById('subtitle').textContent = runs.length === 1
        ? `${kindName}: ${S(runs[0]).workload}, ${S(runs[0]).started} - ` +
          `${S(runs[0]).finished || 'did not end'}, ${runs[0].folder}`
        : `comparison of ${runs.length} ${kindName} results`;

    // ---- outcome
    // A job killed before its end left the summary it wrote when it began: no figures yet.
    const leadFigure = {sweep: 'mode', replay: 'operations', sai3: 'operations',
                        fidelity: 'points_total',
                        datagen: 'files_written', train: 'radix_metrics.images_per_second',
                        mix: 'mix.wall_s'};
    // A find-max sweep's summary names its mode ("find_max"); one written before it did has
    // its answer sentence alone.
    const ended = (s) => at(s, leadFigure[kind] || 'bytes') != null ||
                         (kind === 'sweep' && s.sentence != null);
    function headline(s) {
      if (!ended(s) && kind === 'mix')
        return 'no final figures: the mix did not end; each job\'s results folder in it ' +
               'holds what that job did';
      if (!ended(s))
        return 'no final figures: the job did not end; its time series below shows what it ' +
               'did until then';
      if (kind === 'sweep' && s.mode === 'grid')
        return `${s.points_done} of ${s.points_total} points run` +
               (s.points_resumed ? ` (${s.points_resumed} by an earlier invocation)` : '');
      if (kind === 'sweep') return s.sentence;
      if (kind === 'mix') {
        const st = s.storage || {};
        const costs = (s.jobs || []).filter((j) => at(j, 'alone.cost.au_points') != null);
        const worst = costs.reduce((w, j) => (w && w.alone.cost.au_points >=
                                              j.alone.cost.au_points ? w : j), null);
        return `${s.mix.jobs} jobs together for ${num(s.mix.wall_s, 2)} s against one ` +
               `storage: ${num(st.MB_per_second, 1)} MB/s (${num(st.read_MB_per_second, 1)} ` +
               `reads, ${num(st.checkpoint_MB_per_second, 1)} checkpoints), ` +
               `${(s.bursts || []).length} checkpoint burst(s)` +
               (!worst ? ''
                : worst.alone.cost.au_points > 0
                    ? `; sharing cost ${worst.name} the most: ` +
                      `${num(worst.alone.cost.au_points, 2)} AU points against it alone`
                    : '; sharing cost no training AU against it alone');
      }
      if (kind === 'fidelity') {
        const w = (s.worst || {}).emulated || {};
        const noun = `storage speed${s.points_total === 1 ? '' : 's'}`;
        const speeds = s.points_done === s.points_total ? `${s.points_total} ${noun}`
                       : `${s.points_done} of ${s.points_total} ${noun}`;
        // Points whose calibration missed the real compute by more than the drift bound in
        // every round (the host's speed moved) are not judged.
        const unjudged = s.points_not_judged || 0;
        const drift = unjudged ? `; ${unjudged} not judged (host drift over ` +
                                 `${num(s.drift_bound_percent, 0)}%: see the points)` : '';
        if (s.emulated_within_bound == null && unjudged)
          return `${speeds}: the emulation not judged: at every point the calibrated compute ` +
                 `and the real training's were apart by more than ` +
                 `${num(s.drift_bound_percent, 0)}% (host drift: see the points)`;
        return `${speeds}: the emulation's images/s within ` +
               `${num(w.error_percent, 1)}% and its stall share within ` +
               `${num(w.stall_error_points, 1)} points of the real training's ` +
               (s.emulated_within_bound ? `(inside the ${num(s.bound_percent, 0)}% bound)`
                                        : `(beyond the ${num(s.bound_percent, 0)}% bound: ` +
                                          'see the points)') + drift;
      }
      if (kind === 'replay')
        return `${s.operations} of ${s.original_operations} operations replayed (${s.mode}` +
               `${s.mode === 'timed' ? ' at ' + s.speed + 'x' : ''}) in ${num(s.seconds, 3)} s; ` +
               `the original took ${num(s.original_seconds, 3)} s; ${s.errors} failed`;
      if (kind === 'sai3')
        return `${s.operations} operations in ${num(s.seconds, 3)} s: ` +
               `${num(s.ops_per_second, 1)} ops/s, ${num(s.MiB_per_second, 2)} MiB/s over ` +
               `${s.ranks} rank(s) x ${s.concurrency} workers; ${s.errors} failed`;
      if (kind === 'datagen')
        return `${s.files_written} files, ${bytes(s.bytes_written)} written in ` +
               `${num(s.seconds, 2)} s: ${num(s.write_MB_per_second, 1)} MB/s`;
      if (kind === 'train')
        return `${num(at(s, 'radix_metrics.images_per_second'), 1)} images/s, data wait ` +
               `${num(100 * at(s, 'trainbench.data_wait_share'), 1)}% of step time`;
      // A staged training's wall time holds its compute: the stage's own time is the rest.
      const stage_s = s.wall_s - (kind === 'staged_train' ? s.compute_s || 0 : 0);
      let text = `${bytes(s.bytes)} ${kind === 'staged_train' ? 'staged ' : ''}in ` +
                 `${num(stage_s, 2)} s: ${num(s.MB_per_second, 1)} MB/s`;
      if (kind === 'staged_train' && at(s, 'train.radix_metrics'))
        text += `; then ${num(at(s, 'train.radix_metrics.images_per_second'), 1)} images/s`;
      return text;
    }
    const outcome = section('Outcome');
    const vbox = el('div', {class: 'verdicts', id: 'verdicts'});
    outcome.append(vbox);
    runs.forEach((r, i) => {
      const s = S(r);
      const v = el('div', {class: 'verdict ' + (s.complete ? 'pass' : 'fail'),
                           'data-passed': String(s.complete === true)});
      v.append(el('b', {}, (s.complete ? 'complete' : 'incomplete') +
                           (runs.length > 1 ? ` (${label(r, i)})` : '')),
               headline(s));
      if (!s.complete && s.stop_reason) v.append(el('div', {}, s.stop_reason));
      vbox.append(v);
    });
    runs.forEach((r, i) => {
      const c = S(r).cache;
      if (kind !== 'sai3' || !c) return;
      const who = runs.length > 1 ? label(r, i) + ': ' : '';
      if (c.fits_in_page_cache)
        outcome.append(el('p', {class: 'warning', 'data-warning': 'page-cache'},
                          who + pageCacheNote('the data its GETs read', c.get_bytes,
                                              c.host_memory_bytes)));
      if (c.data_is_local)
        outcome.append(el('p', {class: 'note', 'data-note': 'open-files'},
                          who + 'a GET here reads a file the read engine keeps open (as run ' +
                          'does), where sai3-bench opens the file for every GET: the ops/s of ' +
                          'small objects leave out that open, and page_cache_mode advises a ' +
                          'file once, when first opened (docs/sai3-bench.md)'));
    });

    // ---- figures: one row per figure, one column per result
    const figures = {
      datagen: [['files', 'files'], ['files written', 'files_written'],
                ['files already complete', 'files_skipped'], ['bytes written', 'bytes_written', 'B'],
                ['dataset bytes', 'dataset_bytes', 'B'], ['seconds', 'seconds', 3],
                ['write MB/s', 'write_MB_per_second', 1], ['files/s', 'files_per_second', 1],
                ['threads', 'threads'], ['ranks', 'ranks'], ['verified', 'verified']],
      stage: [['bytes fetched', 'bytes', 'B'], ['bytes resumed', 'resumed_bytes', 'B'],
              ['bytes staged', 'total_bytes', 'B'], ['wall s', 'wall_s', 3],
              ['transfer s', 'transfer_s', 3], ['retry wasted s', 'retry_wasted_s', 3],
              ['verify s', 'verify_s', 3], ['extract s', 'extract_s', 3],
              ['MB/s', 'MB_per_second', 1], ['retries', 'retries'], ['streams', 'streams']],
      train: [['images/s', 'radix_metrics.images_per_second', 1],
              ['images', 'radix_metrics.total_images'],
              ['elapsed s', 'radix_metrics.elapsed_seconds', 2],
              ['batch size', 'radix_metrics.batch_size'], ['epochs', 'radix_metrics.epochs'],
              ['step p50 ms', 'trainbench.step_time_p50_ms', 1],
              ['step p99 ms', 'trainbench.step_time_p99_ms', 1],
              ['data wait share', 'trainbench.data_wait_share', 4],
              ['model', 'trainbench.model'], ['precision', 'trainbench.precision'],
              ['device', 'trainbench.device_name'], ['processes', 'trainbench.world_size']],
    };
    figures.sweep = [['accelerators fed', 'answer_accelerators'],
                     ['first failure', 'first_failure_accelerators'],
                     ['no verdict at (too few steps)', 'no_verdict_accelerators'],
                     ['confirmed', 'confirmed'],
                     ['repeats agree (stable)', 'stable'],
                     ['limited by', 'limited_by'],
                     ['full-length runs at each side', 'confirmation.runs_per_side'],
                     ['N*: full-length runs passed', 'confirmation.answer.passed'],
                     ['N*: AU min %', 'confirmation.answer.au_min_percentage', 1],
                     ['N*: AU median %', 'confirmation.answer.au_median_percentage', 1],
                     ['N*: AU max %', 'confirmation.answer.au_max_percentage', 1],
                     ['N*+1: full-length runs passed', 'confirmation.first_failure.passed'],
                     ['N*+1: AU min %', 'confirmation.first_failure.au_min_percentage', 1],
                     ['N*+1: AU median %', 'confirmation.first_failure.au_median_percentage', 1],
                     ['N*+1: AU max %', 'confirmation.first_failure.au_max_percentage', 1],
                     ['AU target %', 'au_target_percentage', 0], ['probe steps', 'probe_steps'],
                     ['MB/s asked per accelerator', 'demand_MB_per_second_per_accelerator', 3],
                     ['counts tried', 'counts_tried'],
                     ['fewest accelerators (--min)', 'min_accelerators'],
                     ['most accelerators (--max)', 'max_accelerators'], ['ranks', 'ranks']];
    if (kind === 'sweep' && S(runs[0]).mode === 'grid')
      figures.sweep = [['points', 'points_total'], ['done', 'points_done'],
                       ['done earlier', 'points_resumed']];
    figures.replay = [['operations', 'operations'], ['original operations', 'original_operations'],
                      ['failed', 'errors'], ['seconds', 'seconds', 3],
                      ['original seconds', 'original_seconds', 3], ['speed-up', 'speedup', 2],
                      ['mode', 'mode'], ['workers', 'concurrency'], ['ranks', 'ranks'],
                      ['late (timed)', 'late_operations'], ['storage', 'storages']];
    figures.sai3 = [['operations', 'operations'], ['failed', 'errors'], ['seconds', 'seconds', 3],
                    ['ops/s', 'ops_per_second', 1], ['MiB/s', 'MiB_per_second', 2],
                    ['bytes', 'bytes', 'B'], ['workers per rank', 'concurrency'],
                    ['ranks', 'ranks'], ['prepared objects', 'prepare.objects'],
                    ['objects written', 'prepare.written'],
                    ['objects already there', 'prepare.skipped'],
                    ['prepare seconds', 'prepare.seconds', 3], ['target', 'target']];
    figures.fidelity = [['storage speeds', 'points_total'], ['measured', 'points_done'],
                        ['demand MB/s (at the calibrated compute)', 'demand_MB_per_second', 2],
                        ['computation_time s', 'computation_time_s', 4],
                        ['calibration', 'calibration'],
                        ['rounds at each point (figures, errors: their medians)', 'config.repeat'],
                        ['reader.preprocess_time ms', 'preprocess_time_ms', 3],
                        ['preprocess_time stdev ms', 'preprocess_time_stdev_ms', 3],
                        ['mean file', 'mean_file_bytes', 'B'], ['bound %', 'bound_percent', 0],
                        ['drift bound: calibrated against real compute, %',
                         'drift_bound_percent', 0],
                        ['points not judged (host drift)', 'points_not_judged'],
                        ['emulated within the bound', 'emulated_within_bound']];
    for (const path of ['emulated', 'emulated*', 'predicted', 'predicted*'])
      figures.fidelity.push([`${path}: worst images/s error %`, `worst.${path}.error_percent`, 1],
                            [`${path}: worst stall error, points`,
                             `worst.${path}.stall_error_points`, 1]);
    figures.mix = [['jobs', 'mix.jobs'], ['wall s', 'mix.wall_s', 3],
                   ['interval s', 'mix.interval_s', 2],
                   ['each job alone first (--baseline)', 'mix.baseline'],
                   ['storage MB/s', 'storage.MB_per_second', 1],
                   ['read MB/s', 'storage.read_MB_per_second', 1],
                   ['checkpoint MB/s', 'storage.checkpoint_MB_per_second', 1],
                   ['reads', 'storage.reads'], ['checkpoint files', 'storage.checkpoint_files'],
                   ['operations/s', 'storage.operations_per_second', 1],
                   ['read p50 ms', 'storage.read_latency_ms.p50', 3],
                   ['read p90 ms', 'storage.read_latency_ms.p90', 3],
                   ['read p99 ms', 'storage.read_latency_ms.p99', 3],
                   ['read p99.9 ms', 'storage.read_latency_ms.p999', 3],
                   ['read max ms', 'storage.read_latency_ms.max', 3]];
    figures.staged_train = figures.stage.concat(
        [['compute s', 'compute_s', 3], ['images/s', 'train.radix_metrics.images_per_second', 1],
         ['data wait share', 'train.trainbench.data_wait_share', 4]]);
    const fsec = section('Figures');
    const ft = el('table', {id: 'job-figures'});
    ft.append(el('tr', {}, el('th', {}, 'figure'),
                 ...runs.map((r, i) => el('th', {}, runs.length > 1 ? label(r, i) : r.name))));
    for (const [name, key, how] of figures[kind] || []) {
      const tr = el('tr', {'data-figure': key}, el('td', {}, name));
      for (const r of runs) {
        // null: not measured (a stopped sweep's answer), shown as absent, never as 0.
        const v = at(S(r), key);
        const text = typeof v === 'number' ? (how === 'B' ? bytes(v) : num(v, how || 0)) :
                     v == null ? '-' : String(v);
        tr.append(el('td', {'data-value': v == null ? '' : JSON.stringify(v)}, text));
      }
      ft.append(tr);
    }
    fsec.append(ft);

    // ---- charts
    const charts = el('div', {class: 'charts'});
    // A mix draws its charts in its own section, one per mix of a comparison.
    if (kind !== 'mix') section('Charts').append(charts);
    if (staged) {
      const parts = [['transfer', 'transfer_s'], ['retry wasted', 'retry_wasted_s'],
                     ['verify', 'verify_s'], ['extract', 'extract_s']];
      if (kind === 'staged_train') parts.push(['compute (training)', 'compute_s']);
      const other = (s) => Math.max(0, s.wall_s - parts.reduce((a, p) => a + (s[p[1]] || 0), 0));
      const sets = parts.map(([name, key], k) => ({label: name, backgroundColor: color(k),
                                                   data: runs.map((r) => S(r)[key] || 0)}));
      sets.push({label: 'other', backgroundColor: '#b8c0cc', data: runs.map((r) => other(S(r)))});
      chart(charts, 'time-account', 'Where the time went (s)',
            {type: 'bar', data: {labels: runs.map((r, i) => label(r, i)), datasets: sets},
             options: {indexAxis: 'y', scales: {x: {stacked: true, beginAtZero: true,
                                                    title: {display: true, text: 'seconds'}},
                                                y: {stacked: true}}}},
            'The shares add up to the wall time: transfer (bytes arriving), time lost to ' +
            'retries, verifying, extracting' + (kind === 'staged_train' ? ', training' : '') +
            '.');
    }
    const xAxis = {type: 'linear', beginAtZero: true,
                   title: {display: true, text: 'seconds since the start'}};
    const marks = phaseMarksOf(runs[0]);
    // A job shorter than one --interval has one row, its partial last interval: one point,
    // which a line chart draws as nothing.
    const shortJob = !runs.some((r) => r.timeseries && r.timeseries.elapsed_s.length > 1);
    function line(id, title, column, scale, yTitle, note, extraSets) {
      if (!runs.some((r) => r.timeseries))
        return placeholder(charts, id, title, 'no time series in these results (--interval 0?)');
      if (shortJob) {
        const iv = S(runs[0]).timeseries_interval_s;
        return placeholder(charts, id, title,
                           'shorter than one --interval' + (iv ? ` (${num(iv, 2)} s)` : '') +
                           ': no time series (a smaller --interval draws one)');
      }
      const sets = runs.filter((r) => r.timeseries).map((r) => {
        const i = runs.indexOf(r), t = r.timeseries;
        return {label: label(r, i), borderColor: color(i), backgroundColor: color(i),
                pointRadius: 0, borderWidth: 1.5, yAxisID: 'y',
                data: t.elapsed_s.map((x, k) => ({x: x, y: t[column][k] * scale}))};
      });
      const scales = {x: xAxis, y: {beginAtZero: true, title: {display: true, text: yTitle}}};
      for (const extra of extraSets || []) {
        sets.push(extra.set);
        scales[extra.set.yAxisID] = extra.axis;
      }
      chart(charts, id, title, {type: 'line', data: {datasets: sets},
                                options: {scales: scales, plugins: {phaseMarks: marks}}}, note);
    }
    if (kind === 'datagen')
      line('write-rate', 'Write rate: MB/s written', 'io_MB_per_second', 1, 'MB/s (10^6 B/s)',
           'Bytes appended to the dataset in each interval, every writer thread together.');
    if (kind === 'stage')
      line('stage-rate', 'Staging rate: MB/s fetched', 'io_MB_per_second', 1, 'MB/s (10^6 B/s)',
           'Bytes that arrived in each interval, every stream together.');
    if (kind === 'replay')
      line('replay-rate', 'Replay rate: MB/s', 'io_MB_per_second', 1, 'MB/s (10^6 B/s)',
           'Bytes the replayed operations moved in each interval, every worker together.');
    if (kind === 'sai3')
      line('sai3-rate', 'Throughput: MB/s', 'io_MB_per_second', 1, 'MB/s (10^6 B/s)',
           'Bytes prepare wrote, then the op mix moved, in each interval, every worker of ' +
           'every rank together; the dashed line marks where the workload begins.');
    if (staged)
      line('streams', 'Streams busy', 'reads_in_flight', 1, 'ranged GETs in flight',
           'The most connections with a ranged GET in flight at once in each interval.');
    if (kind === 'staged_train') {
      const t = runs[0].timeseries;
      const images = t ? [{set: {label: 'images/s (training)', borderColor: '#2ca02c',
                                 backgroundColor: '#2ca02c', pointRadius: 0, borderWidth: 1.5,
                                 yAxisID: 'y2',
                                 data: t.elapsed_s.map((x, k) => ({x: x,
                                                                   y: t.samples_per_second[k]}))},
                           axis: {position: 'right', beginAtZero: true,
                                  grid: {drawOnChartArea: false},
                                  title: {display: true, text: 'images/s'}}}]
                       : [];
      line('stage-train', 'Stage, then train, on one time axis: MB/s staged and images/s',
           'io_MB_per_second', 1, 'MB/s staged (10^6 B/s)',
           'The stage\'s bytes per interval (left) and the training\'s images per interval ' +
           '(right); the dashed lines mark where each phase begins.', images);
    }
    if (kind === 'train')
      line('images', 'Training throughput: images/s', 'samples_per_second', 1, 'images/s',
           'Images of the steps that ended in each interval.');
    if (kind === 'train' && runs.some((r) => at(S(r), 'trainbench.data') !== 'synthetic'))
      line('train-io', 'Reads: MB/s the data loader read', 'io_MB_per_second', 1,
           'MB/s (10^6 B/s)',
           'Bytes of the images the loader\'s reads returned in each interval, every worker ' +
           'together (the warm-up\'s and the read-ahead\'s included).');
    if (kind === 'train' || kind === 'staged_train')
      line('wait', 'Data wait: share of the time the model waited for a batch',
           'data_wait_share', 100, '% of the time', 'Per interval, while training.');

    if (kind === 'sweep' && S(runs[0]).mode === 'grid') {
      // Each figure against the first swept key, a line per combination of the others.
      const s0 = S(runs[0]);
      const axes = s0.axes || [];
      const first = axes[0], others = axes.slice(1);
      const comboOf = (p) => others.map((a) => `${a.key}=${p.values[a.key]}`).join(', ');
      const combos = [...new Set((s0.points || []).map(comboOf))];
      function gridChart(id, title, field, yTitle, scale) {
        const sets = combos.map((combo, k) => ({
          label: combo || title, borderColor: color(k), backgroundColor: color(k),
          pointRadius: 3, borderWidth: 1.5, spanGaps: true,
          data: first.values.map((v) => {
            const p = (s0.points || []).find((q) => q.values[first.key] === v &&
                                                   comboOf(q) === combo);
            return p ? p.run[field] * scale : null;
          })}));
        chart(charts, id, title, {type: 'line', data: {labels: first.values, datasets: sets},
              options: {scales: {x: {title: {display: true, text: first.key}},
                                 y: {beginAtZero: true, title: {display: true, text: yTitle}}}}});
      }
      gridChart('grid-au', 'AU by ' + first.key, 'au_percentage', 'AU %', 1);
      gridChart('grid-samples', 'Samples/s by ' + first.key, 'samples_per_second', 'samples/s', 1);
      gridChart('grid-mbps', 'MB/s by ' + first.key, 'MB_per_second', 'MB/s', 1);
      const sec = section('Points');
      table(sec, axes.map((a) => a.key).concat(['AU %', 'verdict', 'samples/s', 'MB/s',
                                                 'p99 read ms', 'results']),
            (s0.points || []).map((p) => axes.map((a) => p.values[a.key]).concat([
              num(p.run.au_percentage, 2),
              verdictOf(p.run),
              num(p.run.samples_per_second, 1), num(p.run.MB_per_second, 1),
              num(p.run.read_latency_p99_ms, 2), p.run.results])),
            'points-table');
    } else if (kind === 'sweep') {
      // Each probe at its count: AU against the target, delivered against asked.
      const byCount = {x: {type: 'linear', beginAtZero: true,
                           title: {display: true, text: 'accelerators'}}};
      // A probe whose AU is no verdict (too few steps at that count) or that was stopped
      // passed nothing, whatever its AU: grey crosses, in sets of their own.
      const judged = (p) => ['pass', 'FAIL'].includes(verdictOf(p));
      const auSets = [], mbSets = [];
      runs.forEach((r, i) => {
        const probes = S(r).probes || [];
        for (const full of [false, true]) {
          for (const verdict of [true, false]) {
            const ps = probes.filter((p) => p.full === full && judged(p) === verdict);
            if (!ps.length) continue;
            const name = label(r, i) + (full ? ' full-length' : ' probes') +
                         (verdict ? '' : ', no verdict');
            const c = verdict ? color(i) : '#8a94a3';
            const style = verdict ? (full ? 'rectRot' : 'circle') : 'crossRot';
            auSets.push({label: name, type: 'scatter', borderColor: c,
                         backgroundColor: full && verdict ? c : 'transparent',
                         pointRadius: full ? 5 : 4, pointStyle: style, borderWidth: verdict ? 1 : 2,
                         data: ps.map((p) => ({x: p.accelerators, y: p.au_percentage}))});
            mbSets.push({label: name + ' delivered', type: 'scatter', borderColor: c,
                         backgroundColor: full && verdict ? c : 'transparent', pointRadius: 4,
                         pointStyle: style, borderWidth: verdict ? 1 : 2,
                         data: ps.map((p) => ({x: p.accelerators, y: p.MB_per_second}))});
          }
        }
      });
      const counts = runs.flatMap((r) => (S(r).probes || []).map((p) => p.accelerators));
      const top = Math.max(1, ...counts);
      const target = S(runs[0]).au_target_percentage;
      auSets.push({label: `target ${num(target, 0)}%`, type: 'line', borderColor: '#b3261e',
                   borderDash: [6, 4], pointRadius: 0, borderWidth: 1.5,
                   data: [{x: 0, y: target}, {x: top, y: target}]});
      const asked = S(runs[0]).demand_MB_per_second_per_accelerator;
      mbSets.push({label: 'asked at 100% AU', type: 'line', borderColor: '#5f6b7a',
                   borderDash: [6, 4], pointRadius: 0, borderWidth: 1.5,
                   data: [{x: 0, y: 0}, {x: top, y: asked * top}]});
      // The knee: a dashed line at the answer.
      const s0 = S(runs[0]);
      const knee = s0.answer_accelerators > 0
          ? [{x: s0.answer_accelerators,
              label: `N* = ${s0.answer_accelerators}` +
                     (s0.first_failure_accelerators
                          ? ` (${s0.first_failure_accelerators} fails)`
                          : s0.no_verdict_accelerators
                              ? ` (${s0.no_verdict_accelerators}: no verdict)` : '')}]
          : [];
      chart(charts, 'au-by-count', 'AU at each accelerator count',
            {type: 'scatter', data: {datasets: auSets},
             options: {scales: Object.assign({y: {min: 0, max: 105,
                                                  title: {display: true, text: 'AU %'}}},
                                             byCount),
                       plugins: {phaseMarks: knee}}},
            'Short probes (circles) find the knee; full-length runs (diamonds) confirm it; ' +
            'grey crosses are probes with no verdict (too few steps at that count, or stopped): ' +
            'neither pass nor fail, whatever their AU.');
      chart(charts, 'throughput-by-count', 'What the storage delivered against what was asked',
            {type: 'scatter', data: {datasets: mbSets},
             options: {scales: Object.assign({y: {beginAtZero: true,
                                                  title: {display: true, text: 'MB/s'}}},
                                             byCount)}},
            'Where delivered falls below asked, the storage (or the client: see each run\'s ' +
            'CPU) is the limit.');
      const sec = section('Probes');
      runs.forEach((r, i) => table(sec, ['accelerators', 'run', 'AU %', 'verdict', 'MB/s',
                                         'asked MB/s', 'p99 read ms', 'CPU share',
                                         'page cache', 'results'],
                                   (S(r).probes || []).map((p) => [
                                     p.accelerators, p.full ? 'full-length' : 'probe',
                                     num(p.au_percentage, 2),
                                     verdictOf(p),
                                     num(p.MB_per_second, 1), num(p.demand_MB_per_second, 1),
                                     num(p.read_latency_p99_ms, 2), num(p.cpu_share, 2),
                                     num(p.page_cache_fraction, 2), p.results]),
                                   i === 0 ? 'probes-table' : undefined));
    }

    if (kind === 'fidelity') {
      // Each path's images/s and stall share against the storage's speed (what `run` read
      // from it at the loader's reads in flight), on a log axis: a local folder is hundreds
      // of times the capped points.
      const paths = S(runs[0]).paths || ['real', 'emulated', 'emulated*', 'predicted'];
      const speedOf = (p) => p.storage_MB_per_second != null ? p.storage_MB_per_second
                                                            : p.cap_MB_per_second;
      const drawn = (r) => (S(r).points || []).filter((p) => speedOf(p) > 0)
                               .sort((a, b) => speedOf(a) - speedOf(b));
      const dash = {real: [], emulated: [6, 3], 'emulated*': [2, 3], predicted: [10, 4, 2, 4],
                    'predicted*': [1, 4]};
      function bySpeed(id, title, field, yTitle, note, withReal, band) {
        const sets = [];
        runs.forEach((r, i) => paths.forEach((path, k) => {
          if (!withReal && path === 'real') return;
          const c = color(runs.length > 1 ? i * paths.length + k : k);
          sets.push({label: (runs.length > 1 ? label(r, i) + ' ' : '') + path, borderColor: c,
                     backgroundColor: c, borderDash: dash[path] || [], pointRadius: 3,
                     // A cross: the calibrated emulation at a point not judged (host drift).
                     pointStyle: drawn(r).map((p) => p.paths[path].judged === false
                                                     ? 'crossRot' : 'circle'),
                     borderWidth: path === 'real' ? 2.5 : 1.5,
                     data: drawn(r).map((p) => ({x: speedOf(p), y: p.paths[path][field]}))});
        }));
        const speeds = runs.flatMap((r) => drawn(r).map(speedOf));
        if (band != null && speeds.length)
          for (const y of [band, -band])
            sets.push({label: y > 0 ? `bound ±${num(band, 0)}` : '', borderColor: '#b3261e',
                       borderDash: [6, 4], pointRadius: 0, borderWidth: 1,
                       data: [{x: Math.min(...speeds), y: y}, {x: Math.max(...speeds), y: y}]});
        const demand = S(runs[0]).demand_MB_per_second;
        // The axis spans the demand too (its mark is drawn only inside the axis): with only
        // fast points it would start at a power of ten over it.
        const drawnChart = chart(charts, id, title,
              {type: 'line', data: {datasets: sets},
               options: {scales: {x: {type: 'logarithmic',
                                      suggestedMin: demand > 0 ? demand : undefined,
                                      suggestedMax: demand > 0 ? demand : undefined,
                                      title: {display: true,
                                              text: 'storage speed: MB/s read at the ' +
                                                    'loader\'s reads in flight (log)'}},
                                  y: Object.assign({title: {display: true, text: yTitle}},
                                                   band == null ? {beginAtZero: true} : {})},
                         plugins: {phaseMarks: demand > 0
                                                   ? [{x: demand, label: 'demand'}] : [],
                                   // The bound's second line is unnamed: one legend entry.
                                   legend: {labels: {filter: (item) => item.text !== ''}}}}},
              note);
        // The axis as drawn, for tests: it must hold the demand's mark.
        drawnChart.canvas.setAttribute('data-x-range', JSON.stringify(
            [drawnChart.scales.x.min, drawnChart.scales.x.max]));
      }
      bySpeed('fidelity-rate', 'Images/s against the storage\'s speed', 'images_per_second',
              'images/s (emulated: samples/s)',
              'The real training (solid), the emulation with the calibrated compute ' +
              '(dashed), the emulation given the real run\'s own compute per step (dotted), ' +
              'the op-log replay\'s prediction with the fast training\'s compute and with ' +
              'the real run\'s (predicted*); the dashed line marks the demand.', true);
      bySpeed('fidelity-stall', 'Stall: share of the time the step waited for data',
              'stall_percent', '% of the time (emulated: 100 - AU)',
              'Where storage is slower than the demand the step waits; the emulation ' +
              'must wait as much as the real training.', true);
      bySpeed('fidelity-error', 'Error against the real training: images/s',
              'error_percent', '% of the real images/s',
              'Each path\'s images/s over the real training\'s, less 1, in %; the dashed ' +
              'lines are the study\'s bound.', false, S(runs[0]).bound_percent);
      bySpeed('fidelity-stall-error', 'Error against the real training: stall share',
              'stall_error_points', 'points (path - real)',
              'Each path\'s stall share less the real training\'s, in points.', false,
              S(runs[0]).bound_percent);
      const sec = section('Points');
      const cell = (p, point) => `${num(p.images_per_second, 1)}, ${num(p.stall_percent, 1)}%` +
                          (p.error_percent == null ? ''
                                                   : ` (${num(p.error_percent, 1)}%, ` +
                                                     `${num(p.stall_error_points, 1)})`) +
                          // Not judged: each round's drift, every one over the bound.
                          (p.judged === false ? ' not judged: host drift ' +
                                                (point.rounds_drift_percent || [])
                                                    .map((d) => `${num(d, 1)}%`).join(', ')
                                              : '');
      runs.forEach((r, i) => table(sec, ['storage', 'storage MB/s', 'x demand'].concat(paths)
                                            .concat(['compute ms: calibrated, real ' +
                                                     '(drift; rounds drifted; tries)',
                                                     'real\'s spread over rounds',
                                                     'load before/after', 'real results']),
                                   (S(r).points || []).map((p) => [
                                     p.storage, num(speedOf(p), 2), num(p.times_demand, 2)]
                                     .concat(paths.map((path) => cell(p.paths[path], p)))
                                     .concat([`${num(p.calibrated_compute_ms, 0)}, ` +
                                              `${num(p.paths.real.compute_ms, 0)}` +
                                              (p.calibration_drift_percent == null ? '' :
                                               ` (${num(p.calibration_drift_percent, 1)}%; ` +
                                               `${p.drifted_rounds} of ${p.repeat} drifted; ` +
                                               `${p.tries} tries)`),
                                              // REPEAT rounds: how far the training's own
                                              // rounds were apart (the noise floor).
                                              p.real_spread_percent == null ? '-' :
                                              `${num(p.real_spread_percent, 1)}%, ` +
                                              `${num(p.real_stall_spread_points, 1)}`,
                                              `${num(p.load_before, 2)} / ${num(p.load_after, 2)}`,
                                              p.paths.real.results])),
                                   i === 0 ? 'fidelity-points-table' : undefined));
    }

    // A figure of a job as summary.json has it (data-value) and as the page writes it.
    function jobCell(job, key, how, colorOfJob) {
      const v = at(job, key);
      let text = typeof v === 'number' ? num(v, how || 0) : v == null ? '-' : String(v);
      if (key === 'stop_reason') text = job.complete ? 'complete' : v || 'incomplete';
      const td = el('td', {'data-key': key, 'data-value': v == null ? '' : JSON.stringify(v)});
      if (key === 'name') td.append(el('span', {class: 'swatch',
                                                style: 'background:' + colorOfJob}));
      td.append(text);
      return td;
    }
    function jobTable(parent, id, columns, list, colorOf) {
      const t = el('table', {id: id});
      const box = el('div', {class: 'wide'}, t);
      t.append(el('tr', {}, ...columns.map((c) => el('th', {}, c[0]))));
      for (const job of list)
        t.append(el('tr', {'data-job': job.name},
                    ...columns.map(([, key, how]) => jobCell(job, key, how, colorOf(job.name)))));
      parent.append(box);
    }
    if (kind === 'replay') {
      // Each operation's latency, the original's against the replay's.
      const ops = S(runs[0]).ops || [];
      const sets = [];
      [['original', 'original', '#5f6b7a'], ['replay', 'replayed', color(0)]].forEach(
          ([name, key, c]) => ['p50', 'p99'].forEach((q, k) => sets.push({
            label: `${name} ${q}`, backgroundColor: k ? c : c + '88',
            data: ops.map((o) => o[key].latency_ms[q])})));
      chart(charts, 'replay-latency', 'Latency of each operation: original against replay (ms)',
            {type: 'bar', data: {labels: ops.map((o) => o.op), datasets: sets},
             options: {scales: {y: {beginAtZero: true, title: {display: true, text: 'ms'}}}}},
            'p50 and p99 of each kind of operation, as the op-log recorded them and as replayed.');
      const sec = section('Operations');
      runs.forEach((r, i) => table(sec, ['op', 'original ops', 'replayed', 'skipped',
                                         'original bytes', 'bytes', 'ops/s', 'MiB/s',
                                         'p50 ms orig', 'p50 ms', 'p99 ms orig', 'p99 ms',
                                         'failed'],
                                   (S(r).ops || []).map((o) => [
                                     o.op, o.original.count, o.replayed.count, o.replayed.skipped,
                                     bytes(o.original.bytes), bytes(o.replayed.bytes),
                                     num(o.replayed.ops_per_second, 1),
                                     num(o.replayed.MiB_per_second, 1),
                                     num(o.original.latency_ms.p50, 3),
                                     num(o.replayed.latency_ms.p50, 3),
                                     num(o.original.latency_ms.p99, 3),
                                     num(o.replayed.latency_ms.p99, 3),
                                     o.replayed.errors ? `${o.replayed.errors}: ` +
                                                         o.replayed.first_error : '0']),
                                   i === 0 ? 'replay-ops-table' : undefined));
      // Several op-logs (a mix's jobs) replayed together: each against its own original.
      runs.forEach((r, i) => {
        const jobs = S(r).jobs;
        if (!Array.isArray(jobs)) return;
        const rows = [];
        jobs.forEach((j) => (j.ops || []).forEach((o) => rows.push({name: j.job, ...o})));
        const names = jobs.map((j) => j.job);
        jobTable(section(runs.length > 1 ? `Each job: ${label(r, i)}` : 'Each job'),
                 'replay-jobs' + (i ? '-' + (i + 1) : ''),
                 [['job', 'name'], ['op', 'op'], ['original ops', 'original.count'],
                  ['replayed', 'replayed.count'], ['p50 ms orig', 'original.latency_ms.p50', 3],
                  ['p50 ms', 'replayed.latency_ms.p50', 3],
                  ['p99 ms orig', 'original.latency_ms.p99', 3],
                  ['p99 ms', 'replayed.latency_ms.p99', 3],
                  ['MiB/s orig', 'original.MiB_per_second', 1],
                  ['MiB/s', 'replayed.MiB_per_second', 1], ['failed', 'replayed.errors']],
                 rows, (name) => color(Math.max(0, names.indexOf(name))));
      });
    }

    if (kind === 'sai3') {
      // Each operation's latency percentiles, and time to first byte where measured.
      const ops = S(runs[0]).ops || [];
      const sets = ['p50', 'p90', 'p99'].map((q, k) => ({
        label: q, backgroundColor: color(k), data: ops.map((o) => o.latency_ms[q])}));
      if (ops.some((o) => o.first_byte_latency_ms))
        sets.push({label: 'first byte p50', backgroundColor: '#5f6b7a',
                   data: ops.map((o) => o.first_byte_latency_ms
                                        ? o.first_byte_latency_ms.p50 : null)});
      chart(charts, 'sai3-latency', 'Latency of each operation (ms)',
            {type: 'bar', data: {labels: ops.map((o) => o.op), datasets: sets},
             options: {scales: {y: {beginAtZero: true, title: {display: true, text: 'ms'}}}}},
            'p50, p90 and p99 of each kind of operation over every rank; a GET\'s time to ' +
            'first byte where the storage measures it (S3).');
      const sec = section('Operations');
      runs.forEach((r, i) => table(sec, ['op', 'ops', 'share', 'skipped', 'bytes', 'ops/s',
                                         'MiB/s', 'p50 ms', 'p99 ms', 'first byte p50 ms',
                                         'failed'],
                                   (S(r).ops || []).map((o) => [
                                     o.op, o.count, num(100 * o.share, 1) + '%', o.skipped,
                                     bytes(o.bytes), num(o.ops_per_second, 1),
                                     num(o.MiB_per_second, 2), num(o.latency_ms.p50, 3),
                                     num(o.latency_ms.p99, 3),
                                     o.first_byte_latency_ms
                                         ? num(o.first_byte_latency_ms.p50, 3) : '-',
                                     o.errors ? `${o.errors}: ${o.first_error}` : '0']),
                                   i === 0 ? 'sai3-ops-table' : undefined));
    }

    if (kind === 'mix') {
      // Each checkpoint burst as a band across a mix's time charts, in its job's colour (a
      // read's paler): where a training's AU dips inside one, another job's checkpoint cost it.
      const burstBands = {
        id: 'burstBands',
        beforeDatasetsDraw(drawn) {
          const {ctx, chartArea, scales} = drawn;
          const shown = [];
          ctx.save();
          for (const band of drawn.options.plugins.burstBands || []) {
            const left = Math.max(chartArea.left, scales.x.getPixelForValue(band.start_s));
            const right = Math.min(chartArea.right, scales.x.getPixelForValue(band.end_s));
            if (right < left) continue;
            ctx.fillStyle = band.color + (band.operation === 'read' ? '24' : '45');
            // A burst shorter than a pixel is still seen.
            ctx.fillRect(left, chartArea.top, Math.max(1, right - left),
                         chartArea.bottom - chartArea.top);
            shown.push({job: band.job, operation: band.operation, start_s: band.start_s,
                        end_s: band.end_s, bytes: band.bytes});
          }
          ctx.restore();
          // The bands drawn, as the canvas's data-points has its lines: for tests and readers.
          drawn.canvas.setAttribute('data-bands', JSON.stringify(shown));
        }
      };
      runs.forEach((r, i) => {
        const s = S(r);
        // A mix stopped before its end wrote no figures: its outcome says so.
        if (!s.mix || !Array.isArray(s.jobs) || !s.storage) return;
        const suffix = i ? '-' + (i + 1) : '';
        const jobs = s.jobs;
        const colorOf = (name) => color(Math.max(0, jobs.findIndex((j) => j.name === name)));
        const trainings = jobs.filter((j) => j.kind === 'run');
        const bursts = s.bursts || [];
        const where = section(runs.length > 1 ? `Mix ${label(r, i)}` : 'Jobs');
        const columns = [['job', 'name'], ['workload', 'workload'], ['role', 'role'],
                         ['checkpoint every s', 'every_s', 2], ['accelerators', 'accelerators'],
                         ['AU %', 'au_percentage', 2], ['samples/s', 'samples_per_second', 1],
                         ['MB/s', 'MB_per_second', 1], ['read p99 ms', 'read_latency_ms.p99', 3],
                         ['checkpoints written', 'checkpoints_written'],
                         ['checkpoint write GB/s', 'checkpoint_write_GB_per_second', 3]];
        if (s.mix.baseline)
          columns.push(['AU alone %', 'alone.au_percentage', 2],
                       ['cost: AU points', 'alone.cost.au_points', 2],
                       ['samples/s against alone', 'alone.cost.samples_per_second_ratio', 3],
                       ['checkpoint GB/s alone', 'alone.checkpoint_write_GB_per_second', 3]);
        columns.push(['ended', 'stop_reason'], ['results', 'results']);
        jobTable(where, 'mix-jobs' + suffix, columns, jobs, colorOf);
        where.append(el('p', {class: 'note'},
                        'Each job\'s figures as its own results report them (each folder is an ' +
                        'ordinary run\'s: `trainbench report` draws it)' +
                        (s.mix.baseline ? '; alone: the same job run by itself first ' +
                                          '(--baseline); the cost is its AU alone less its AU ' +
                                          'here, and its samples/s here over alone.' : '.')));

        const mixCharts = el('div', {class: 'charts'});
        where.append(mixCharts);
        const timeAxis = {type: 'linear', min: 0, suggestedMax: s.mix.wall_s,
                          title: {display: true, text: 'seconds since the mix\'s jobs started'}};
        const bands = bursts.map((b) => ({job: b.job, operation: b.operation, start_s: b.start_s,
                                          end_s: b.end_s, bytes: b.bytes,
                                          color: colorOf(b.job)}));
        const bandNote = bursts.length
            ? ' The shaded bands are the checkpoint bursts, each in its job\'s colour ' +
              '(writes darker, reads paler).'
            : ' No job wrote or read a checkpoint: no bursts.';
        const auSets = trainings.map((j) => {
          const t = j.series || {t_s: [], au_percentage: []};
          return {label: j.name, borderColor: colorOf(j.name), backgroundColor: colorOf(j.name),
                  pointRadius: t.t_s.length > 1 ? 0 : 3, borderWidth: 1.5, spanGaps: false,
                  data: t.t_s.map((x, k) => ({x: x, y: t.au_percentage[k]}))};
        });
        chart(mixCharts, 'mix-au' + suffix, 'Each job\'s AU over time',
              {type: 'line', data: {datasets: auSets},
               options: {scales: {x: timeAxis,
                                  y: {min: 0, max: 105,
                                      title: {display: true, text: 'AU %'}}},
                         plugins: {burstBands: bands}},
               plugins: [burstBands]},
              'Per interval, each training\'s share of its accelerators\' time not ' +
              'spent waiting for data; a gap where it was not training.' + bandNote);
        const st = s.storage.series || {t_s: [], MB_per_second: [], share: {}};
        chart(mixCharts, 'mix-storage' + suffix, 'The storage: MB/s over time',
              {type: 'line',
               data: {datasets: [{label: 'every job', borderColor: '#1d2330',
                                  backgroundColor: '#1d2330', borderWidth: 1.5,
                                  pointRadius: st.t_s.length > 1 ? 0 : 3,
                                  data: st.t_s.map((x, k) => ({
                                    x: x, y: st.MB_per_second[k]}))}]},
               options: {scales: {x: timeAxis,
                                  y: {beginAtZero: true,
                                      title: {display: true,
                                              text: 'MB/s (10^6 B/s)'}}},
                         plugins: {burstBands: bands}},
               plugins: [burstBands]},
              'The bytes every job read and every checkpoint wrote or read, per ' +
              'interval.' + bandNote);
        const shared = jobs.map((j) => j.name).filter((name) => (st.share || {})[name]);
        chart(mixCharts, 'mix-share' + suffix, 'Each job\'s share of the storage\'s bytes (%)',
              {type: 'line',
               data: {datasets: shared.map((name, k) => ({
                 label: name, borderColor: colorOf(name), backgroundColor: colorOf(name) + '99',
                 fill: k ? '-1' : 'origin', borderWidth: 1, pointRadius: 0,
                 data: st.t_s.map((x, n) => ({
                   x: x, y: st.share[name][n] == null ? null : 100 * st.share[name][n]}))}))},
               options: {scales: {x: timeAxis,
                                  y: {stacked: true, min: 0, max: 100,
                                      title: {display: true, text: '% of the bytes'}}}}},
              'Stacked: the jobs\' shares of each interval\'s bytes add up to 100% (0 where ' +
              'nothing moved).');

        where.append(el('h3', {}, 'AU inside and outside the checkpoint bursts'));
        jobTable(where, 'mix-burst-au' + suffix,
                 [['job', 'name'], ['AU %', 'au_percentage', 2],
                  ['AU in bursts %', 'au_in_bursts_percentage', 2],
                  ['AU outside bursts %', 'au_outside_bursts_percentage', 2],
                  ['intervals in bursts', 'intervals_in_bursts']],
                 trainings, colorOf);
        where.append(el('p', {class: 'note'},
                        'The mean AU of each training\'s intervals that overlap another ' +
                        'job\'s burst, and of those that do not ("-": no other job\'s bursts).'));
        if (bursts.length) {
          where.append(el('h3', {}, 'Checkpoint bursts'));
          table(where, ['job', 'operation', 'start s', 'end s', 'seconds', 'bytes', 'GB/s'],
                bursts.map((b) => [b.job, b.operation, num(b.start_s, 3), num(b.end_s, 3),
                                   num(b.end_s - b.start_s, 3), bytes(b.bytes),
                                   b.end_s > b.start_s
                                       ? num(b.bytes / (b.end_s - b.start_s) / 1e9, 3) : '-']),
                'mix-bursts' + suffix);
        }
      });
    }

    // ---- details
    runs.forEach((r, i) => {
      const s = S(r);
      const sec = section(runs.length > 1 ? `Details: ${label(r, i)}` : 'Details');
      if (staged && (s.objects || []).length) {
        sec.append(el('h3', {}, 'Objects'));
        table(sec, ['object', 'size', 'fetched', 'resumed', 'checksum', 'status'],
              s.objects.map((o) => [o.name, bytes(o.size_bytes), bytes(o.fetched_bytes),
                                    bytes(o.resumed_bytes), o.checksum, o.status]),
              i === 0 ? 'objects-table' : undefined);
      }
      if (staged && (s.sources || []).length) {
        sec.append(el('h3', {}, 'Sources'));
        table(sec, ['source', 'role', 'bytes'],
              s.sources.map((o) => [o.source, o.role, bytes(o.bytes)]));
      }
      sec.append(el('h3', {}, 'Job'));
      table(sec, ['field', 'value'],
            [['kind', s.kind], ['workload', s.workload], ['started', s.started],
             ['finished', s.finished], ['hosts', (s.host_names || []).join(', ')],
             ['version', s.version], ['results folder', r.folder]]);
      const d = el('details', {});
      d.append(el('summary', {}, 'config (the job\'s resolved options)'),
               el('pre', {class: 'config'}, JSON.stringify(s.config || {}, null, 2)));
      sec.append(d);
    });
    document.body.setAttribute('data-report-ready', 'true');
    return;
  }
