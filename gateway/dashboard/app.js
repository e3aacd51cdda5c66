// The dashboard's script: polls GET /api/core/v2/info and GET /api/dashboard/v1/data once a second and renders them.
// Plain browser JavaScript with no build step; the chart is uPlot (loaded before this file as the global `uPlot`).
// Every text from the node is set with textContent, never as HTML. A token (for non-loopback clients, whose data
// route answers 403) is kept in sessionStorage and sent as `Authorization: Bearer`.
(function () {
  'use strict';

  var POLL_MS = 1000;
  var TOKEN_KEY = 'ledger-dashboard-token';
  var $ = function (id) { return document.getElementById(id); };
  var chart = null;
  var token = sessionStorage.getItem(TOKEN_KEY) || '';
  var timer = null;

  function headers() {
    var h = { Accept: 'application/json' };
    if (token) h.Authorization = 'Bearer ' + token;
    return h;
  }

  function getJson(path) {
    return fetch(path, { headers: headers(), cache: 'no-store' }).then(function (res) {
      if (res.ok) return res.json();
      return res.json().then(
        function (body) { var e = new Error((body && body.error && body.error.message) || res.statusText); e.status = res.status; throw e; },
        function () { var e = new Error(res.status + ' ' + res.statusText); e.status = res.status; throw e; }
      );
    });
  }

  function text(id, value) {
    var el = $(id);
    if (el) el.textContent = value;
  }

  function ago(seconds) {
    if (!seconds) return '';
    var d = Math.max(0, Math.round(Date.now() / 1000 - seconds));
    if (d < 60) return d + ' s ago';
    if (d < 3600) return Math.floor(d / 60) + ' min ago';
    return new Date(seconds * 1000).toLocaleString();
  }

  function fixed(n, digits) {
    return typeof n === 'number' ? n.toFixed(digits) : '–';
  }

  // bytes as B, kB, MB, GB, TB (decimal, as `df -H`); the node sends u64 sizes as decimal strings
  function size(value) {
    var n = Number(value);
    if (!isFinite(n)) return '–';
    var units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
    var i = 0;
    while (Math.abs(n) >= 1000 && i < units.length - 1) { n /= 1000; i++; }
    return (i === 0 ? String(n) : n.toFixed(1)) + ' ' + units[i];
  }

  function duration(seconds) {
    if (seconds < 3600) return Math.max(1, Math.round(seconds / 60)) + ' min';
    if (seconds < 2 * 86400) return Math.round(seconds / 3600) + ' h';
    return Math.round(seconds / 86400) + ' days';
  }

  // What runs out first: the store, the free disk, the time left at the store's growth, the pruning index's date.
  function renderStorage(info) {
    var st = info.storage;
    $('storage').hidden = !st;
    if (!st) return;
    var status = info.status || {};
    text('store-size', size(st.databaseSizeBytes));
    text('disk-free', size(st.diskFreeBytes) + ' free of ' + size(st.diskSizeBytes));
    var left = 'growth: measuring (10 min)';
    if (st.secondsUntilFull !== undefined) {
      left = 'disk full in ' + duration(st.secondsUntilFull) + ' at ' + size(st.growthBytesPerHour) + '/h';
    } else if (st.growthBytesPerHour !== undefined) {
      left = 'the store does not grow';
    }
    text('disk-left', left);
    var when = st.pruningIndexTimestamp ? new Date(st.pruningIndexTimestamp * 1000).toLocaleString() : 'unknown';
    text('pruning', 'pruning index ' + status.pruningIndex + ', milestone of ' + when);
    $('pruning').dataset.timestamp = String(st.pruningIndexTimestamp || 0);
  }

  function badge(id, label, state) {
    var el = $(id);
    el.textContent = label;
    el.className = 'badge ' + state;
  }

  function renderInfo(info) {
    var status = info.status || {};
    var latest = status.latestMilestone || {};
    var confirmed = status.confirmedMilestone || {};
    text('version', info.version ? 'v' + info.version : '');
    var identity = info.identity || {};
    text('identity', identity.publicKey ? 'identity ' + identity.publicKey + ' (node ' + identity.nodeId + ')' : '');
    badge('health', status.isHealthy ? 'healthy' : 'not healthy', status.isHealthy ? 'ok' : 'bad');
    text('latest-milestone', String(latest.index));
    text('latest-time', ago(latest.timestamp));
    text('confirmed-milestone', String(confirmed.index));
    $('confirmed-milestone').dataset.index = String(confirmed.index);
    text('confirmed-time', ago(confirmed.timestamp));
    var m = info.metrics || {};
    text('bps', fixed(m.blocksPerSecond, 1));
    text('rbps', fixed(m.referencedBlocksPerSecond, 1));
    text('rate', fixed(m.referencedRate, 1));
    renderStorage(info);
  }

  function cell(row, value, className) {
    var td = document.createElement('td');
    if (value instanceof Node) td.appendChild(value);
    else td.textContent = value;
    if (className) td.className = className;
    row.appendChild(td);
  }

  function renderMilestones(list) {
    var body = $('milestones').tBodies[0];
    body.replaceChildren();
    list.forEach(function (m) {
      var row = document.createElement('tr');
      var link = document.createElement('a');
      if (Number.isInteger(m.index)) link.href = '/dashboard/explorer#/milestone/' + m.index;
      link.textContent = String(m.index);
      link.title = 'milestone ' + m.milestoneId + ', block ' + m.blockId;
      cell(row, link);
      cell(row, ago(m.timestamp));
      cell(row, String(m.referencedBlocks), 'num');
      cell(row, String(m.includedTransactions), 'num');
      cell(row, String(m.conflictingTransactions), 'num');
      cell(row, m.confirmationMs + ' ms', 'num');
      body.appendChild(row);
    });
  }

  function renderPeers(peers) {
    var body = $('peers').tBodies[0];
    body.replaceChildren();
    if (peers.length === 0) {
      var empty = document.createElement('tr');
      cell(empty, 'no peers');
      body.appendChild(empty);
    }
    peers.forEach(function (p) {
      var row = document.createElement('tr');
      cell(row, (p.alias ? p.alias + ' ' : '') + (p.id.length > 16 ? p.id.slice(0, 16) + '…' : p.id));
      cell(row, p.address);
      cell(row, p.relation);
      cell(row, p.connected ? 'connected' : 'not connected');
      cell(row, p.latestMilestoneIndex === undefined ? '–' : p.confirmedMilestoneIndex + ' / ' + p.latestMilestoneIndex);
      body.appendChild(row);
    });
  }

  function renderSeries(series) {
    var xs = series.blocks.map(function (_, i) { return series.start + i; });
    var data = [xs, series.blocks, series.referenced];
    var el = $('chart');
    if (!chart) {
      chart = new uPlot({
        width: Math.max(320, el.clientWidth - 16),
        height: 260,
        series: [
          {},
          { label: 'blocks/s', stroke: '#2f6fde', width: 1.5, fill: 'rgba(47,111,222,0.08)' },
          { label: 'referenced blocks/s (per milestone)', stroke: '#1f8a4c', width: 2, spanGaps: true, points: { show: true, size: 4 } },
        ],
        // whole seconds at least on the time axis (uPlot would tick in milliseconds over a few seconds)
        axes: [{ incrs: [1, 2, 5, 10, 15, 30, 60, 120, 300, 600] }, { label: 'blocks/s' }],
      }, data, el);
      window.addEventListener('resize', function () { chart.setSize({ width: Math.max(320, el.clientWidth - 16), height: 260 }); });
    } else {
      chart.setData(data);
    }
    el.dataset.points = String(xs.length);
    el.dataset.milestonePoints = String(series.referenced.filter(function (v) { return v !== null; }).length);
    el.dataset.lastTime = String(xs.length ? xs[xs.length - 1] : 0);
  }

  function renderData(d) {
    badge('sync', d.synced ? 'synced' : 'syncing', d.synced ? 'ok' : 'warn');
    text('tips-nonlazy', String(d.tips.nonLazy));
    text('tips-semilazy', String(d.tips.semiLazy));
    var pow = d.pow;
    text('pow-state', pow.enabled ? 'on, ' + pow.workers + (pow.workers === 1 ? ' worker' : ' workers') : 'off');
    text('pow-queue', pow.enabled ? pow.pending + ' / ' + pow.limit : '–');
    text('pow-rate', pow.mined > 0 ? pow.mined + ' mined, ' + (pow.hashRate / 1e6).toFixed(2) + ' MH/s last' : 'no job yet');
    renderSeries(d.series);
    renderMilestones(d.milestones);
    renderPeers(d.peers);
  }

  function showError(message) {
    var el = $('error');
    el.hidden = !message;
    el.textContent = message || '';
  }

  function poll() {
    Promise.all([getJson('/api/core/v2/info'), getJson('/api/dashboard/v1/data')]).then(
      function (answers) {
        renderInfo(answers[0]);
        renderData(answers[1]);
        showError('');
        $('token-form').hidden = true;
        text('updated', 'updated ' + new Date().toLocaleTimeString());
      },
      function (err) {
        if (err.status === 403) $('token-form').hidden = false;
        showError('cannot read the node: ' + err.message);
      }
    ).then(function () { timer = setTimeout(poll, POLL_MS); });
  }

  $('token-form').addEventListener('submit', function (e) {
    e.preventDefault();
    token = $('token').value.trim();
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
    clearTimeout(timer);
    poll();
  });

  poll();
})();
