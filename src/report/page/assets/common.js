(function () {
  'use strict';
  const model = JSON.parse(document.getElementById('report-data').textContent);
  const runs = model.runs;
  const main = document.getElementById('report');
  const colors = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
                  '#17becf'];
  const color = (i) => colors[i % colors.length];

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) e.append(c instanceof Node ? c : String(c));
    return e;
  }
  function num(x, digits) {
    if (x === null || x === undefined || Number.isNaN(Number(x))) return '-';
    return Number(x).toLocaleString('en-US', {minimumFractionDigits: digits,
                                              maximumFractionDigits: digits});
  }
  function bytes(x) {
    const units = ['B', 'KB', 'MB', 'GB', 'TB'];
    let i = 0;
    for (x = Number(x); x >= 1000 && i < units.length - 1; ++i) x /= 1000;
    return num(x, i ? 2 : 0) + ' ' + units[i];
  }
  function section(title, parent) {
    const s = el('section', {});
    s.append(el('h2', {}, title));
    (parent || main).append(s);
    return s;
  }
  function table(parent, headers, rows, id) {
    const t = el('table', id ? {id: id} : {});
    t.append(el('tr', {}, ...headers.map((h) => el('th', {}, h))));
    for (const r of rows)
      t.append(el('tr', {}, ...r.map((c) => c instanceof Node ? el('td', {}, c) : el('td', {}, c))));
    parent.append(t);
    return t;
  }
  // The warning of data the page cache can serve, the same on every page that reads data
  // (a run's dataset, a sai3-bench workload's objects).
  function pageCacheNote(what, dataBytes, memoryBytes) {
    return `${what} (${bytes(dataBytes)}) is smaller than 5x host memory ` +
           `(${bytes(memoryBytes)}): the page cache can serve it, so this measures memory, ` +
           'not storage (MLPerf Storage asks for 5x memory)';
  }
  const m = (run) => run.summary.metric || {};
  // A checkpointing workload reads no dataset: its figures are the checkpoints'.
  const ckptOnly = (run) => run.summary.checkpointing_only === true;
  function ckptRate(run, op) {  // GB/s over every checkpoint `op` of the run
    let b = 0, t = 0;
    for (const k of run.summary.checkpoints || [])
      if (k.operation === op) { b += k.bytes; t += k.seconds; }
    return t > 0 ? b / t / 1e9 : null;
  }
  const label = (run, i) => runs.length > 1 ? `${i + 1}: ${run.name}` : run.name;

  // Marks where phases begin (epochs, evaluations, checkpoints) on time charts, from the
  // first run's time series.
  const phaseMarks = {
    id: 'phaseMarks',
    afterDatasetsDraw(drawn) {
      const marks = drawn.options.plugins.phaseMarks;
      if (!marks || !marks.length) return;
      const {ctx, chartArea, scales} = drawn;
      ctx.save();
      ctx.strokeStyle = 'rgba(60,60,60,0.35)';
      ctx.fillStyle = '#5f6b7a';
      ctx.setLineDash([4, 4]);
      ctx.font = '11px sans-serif';
      for (const mark of marks) {
        const x = scales.x.getPixelForValue(mark.x);
        if (x < chartArea.left || x > chartArea.right) continue;
        ctx.beginPath();
        ctx.moveTo(x, chartArea.top);
        ctx.lineTo(x, chartArea.bottom);
        ctx.stroke();
        ctx.fillText(mark.label, x + 3, chartArea.top + 10);
      }
      ctx.restore();
    }
  };
  function phaseMarksOf(run) {
    const out = [];
    if (!run || !run.timeseries) return out;
    const t = run.timeseries;
    let last = '';
    for (let i = 0; i < t.phase.length; ++i) {
      const key = t.phase[i] + ' ' + t.epoch[i];
      if (key === last) continue;
      last = key;
      if (t.phase[i] === 'done' || t.phase[i] === 'setup') continue;
      const start = t.elapsed_s[i] - t.interval_s[i];
      const name = t.phase[i] === 'train' ? 'epoch ' + t.epoch[i]
                 : t.phase[i] === 'checkpoint' ? 'ckpt' : t.phase[i];
      out.push({x: Math.max(0, start), label: name});
    }
    return out;
  }

  function chart(parent, id, title, config, note) {
    const fig = el('figure', {class: 'chart', id: 'chart-' + id});
    fig.append(el('figcaption', {}, title));
    const box = el('div', {class: 'canvas-box'});
    const canvas = el('canvas', {'data-chart': id});
    box.append(canvas);
    fig.append(box);
    if (note) fig.append(el('p', {class: 'note'}, note));
    parent.append(fig);
    config.options = Object.assign({animation: false, responsive: true,
                                    maintainAspectRatio: false, normalized: true},
                                   config.options || {});
    // A chart's own inline plugins (a mix's burst bands) come after the phase marks.
    config.plugins = [phaseMarks].concat(config.plugins || []);
    const c = new Chart(canvas.getContext('2d'), config);
    // What was drawn, for tests and for readers who want the numbers.
    canvas.setAttribute('data-points', JSON.stringify(
        {labels: c.data.labels || null,
         datasets: c.data.datasets.map((d) => ({label: d.label, data: d.data}))}));
    canvas.setAttribute('data-rendered', 'true');
    return c;
  }
  function placeholder(parent, id, title, text) {
    const fig = el('figure', {class: 'chart', id: 'chart-' + id});
    fig.append(el('figcaption', {}, title), el('p', {class: 'note', 'data-chart-missing': id}, text));
    parent.append(fig);
  }

