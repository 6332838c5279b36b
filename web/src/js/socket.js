// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// socket.js: the connection to the server — hello with the seat's token (and the last version
// seen, to get what was missed), reconnecting by itself with a growing pause, a ping every few
// seconds to estimate the lag a move carries, and a count of what was sent (data-sent on
// <body>, for tests to read).

export class Socket {
  constructor(gameId, token, onMessage, onStatus) {
    Object.assign(this, { gameId, token, onMessage, onStatus });
    this.version = -1;
    this.lag = 0;
    this.delay = 500;
    this.sent = 0;
    this.closedByUs = false;
    this.connect();
  }

  connect() {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    this.onStatus('connecting');
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      const hello = { t: 'hello', game: this.gameId };
      if (this.token) hello.token = this.token;
      if (this.token && this.name) hello.name = this.name;
      if (this.version >= 0) hello.v = this.version;
      this.raw(hello);
      this.onStatus('online');
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.ping(), 5000);
      this.ping();
    };
    ws.onmessage = (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      if (m.t === 'pong') {
        const rtt = performance.now() - this.pingAt;
        this.lag = Math.round(this.lag ? 0.7 * this.lag + 0.3 * (rtt / 2) : rtt / 2);
        return;
      }
      if (typeof m.v === 'number' && m.v > this.version) this.version = m.v;
      this.onMessage(m);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.closedByUs) return;
      this.onStatus('offline');
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  ping() {
    this.pingAt = performance.now();
    this.raw({ t: 'ping' });
  }

  raw(obj) {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    if (obj.t !== 'ping' && obj.t !== 'hello') document.body.dataset.sent = String(++this.sent);
    return true;
  }

  close() {
    this.closedByUs = true;
    this.ws.close();
  }
}
