// The Pico in a box (issue 20): MicroPython for the RP2040 runs in rp2040js with the riskboard
// firmware on its flash, and the board's chips answer on its wires.
//
//   node run.mjs --image micropython.uf2 --bootrom bootrom-b1.bin --fs littlefs.img
//                --ctl /path/ctl.sock [--world '{json}'] [--seed N]
//
// stdout: the bytes the Pico writes to USB CDC; stdin: bytes for it (dropped while its USB
// is down). stderr: log lines. --ctl: a unix socket of JSON lines. In: {"cmd": "press",
// "ch": 7}, "release", "tag" {reader, uid: hex | null}, "reader" {reader, present},
// "jumper" {grounded}, "hang", "reset", "stats", "quit". Out: {"ev": "boot" | "usb" |
// "usb_down" | "leds" | "led_timing" | "status_led" | "watchdog" | "stats" | "t" | "cdc_out"
// | "cdc_in", ...}.
//
// What rp2040js 1.4.1 lacks is filled here, on the host side (see ../../shared/pico-box
// README): USB OUT reads are held until the host has bytes (a real host NAKs), so an idle
// Pico sleeps; the watchdog reboots by building a new chip with the same flash and the
// watchdog's reason/scratch registers; PIO state machines are stepped from the CPU loop at
// clk_sys / clkdiv; flash erase/program calls into the bootrom are done on the flash array;
// the ROSC gives random bits.
//
// The world: a 74HC165 chain on GP2 (SH/LD), GP3 (CLK), GP4 (QH), buttons active low; I2C1
// with TCA9548A muxes, PN532 readers behind them (or on the bus) speaking the PN532's I2C
// framing, and MCP23017 expanders (buttons on their pins); SPI0 with MFRC522 readers, each
// on its own chip-select GPIO, answering the chip's register protocol; the WS2812 chain decoded from GP22 with the datasheet's
// timing checked; GP15 (safe-mode jumper, pulled up unless grounded); the status LED GP25.
// A miswired board (issue 25): "hc165_swap" [[a, b], ...] crosses the wires of buttons a and
// b (button a drives chain input b and b drives a); "led_order" is the colour order the
// chips take ("GRB" by default); "led_reversed" [[first, last], ...] is a run of the chain
// glued the other way round, so "leds" events give each place on the board (index) the
// pixel the chain put there; a PN532 moves to another mux port by its place in "pn532".
import fs from 'fs';
import net from 'net';
import { Simulator, USBCDC, ConsoleLogger, LogLevel, GPIOPinState } from 'rp2040js';

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (!a.startsWith('--')) continue;
  const next = process.argv[i + 1];
  args[a.slice(2)] = next !== undefined && !next.startsWith('--') ? (i++, next) : true;
}
const world = JSON.parse(args.world ?? '{}');
const bootrom = fs.readFileSync(args.bootrom);
const FS_OFFSET = 0xa0000; // RPI_PICO: 2 MiB flash, the last 1408 KiB are littlefs
const CYCLE_NS = 8; // clk_sys 125 MHz
const PIO_SLICE_NS = 120;
let clock = null;
const log = (...a) => process.stderr.write(`[picobox ${((clock?.nanos ?? 0) / 1e9).toFixed(3)}s] ${a.join(' ')}\n`);

// ---------- WS2812 timing (Worldsemi WS2812B datasheet, rev. V5) ----------
// T0H 220-380 ns, T1H 580-1000 ns; a low time of RES >= 280 us latches the frame. Older
// WS2812 latch after 50 us already, so a low gap of 50 us or more inside a frame tears it:
// the decoder ends a frame there (and the test sees a short frame); a low gap above 10 us
// (far beyond any bit's low time) inside a frame is reported as a timing fault.
const T0H = [220, 380], T1H = [580, 1000], LATCH_NS = 50000, GAP_FAULT_NS = 10000;

// ---------- control socket ----------
const clients = new Set();
function emit(obj) {
  const line = JSON.stringify(obj) + '\n';
  for (const c of clients) c.write(line);
}
if (args.ctl) {
  try { fs.unlinkSync(args.ctl); } catch {}
  net.createServer((sock) => {
    clients.add(sock);
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i); buf = buf.slice(i + 1);
        if (line.trim()) pendingCmds.push(JSON.parse(line));
      }
    });
    sock.on('close', () => clients.delete(sock));
    sock.on('error', () => clients.delete(sock));
  }).listen(args.ctl);
}
const pendingCmds = [];

// ---------- the board's chips (they outlive the chip's reboots) ----------
const chainBits = 8 * (world.hc165_chips ?? 6);
const buttons = new Uint8Array(chainBits).fill(1); // parallel inputs: pull-up, button to GND
const buttonAt = Array.from({ length: chainBits }, (_, bit) => bit); // chain input -> button
for (const [a, b] of world.hc165_swap ?? []) { buttonAt[a] = b; buttonAt[b] = a; }
const chipOrder = world.led_order ?? 'GRB';
const reversedRuns = world.led_reversed ?? [];
let jumperGrounded = !!world.jumper_grounded;

class Tca9548a {
  constructor(address) { this.address = address; this.mask = 0; }
  write(bytes) { if (bytes.length) this.mask = bytes[bytes.length - 1]; }
  read() { return this.mask; }
}

class Mcp23017 {
  // Microchip DS20001952: BANK=0 register map, sequential addressing (IOCON.SEQOP=0). An
  // input pin reads its level: low when its button is held, high through the pull-up that
  // GPPU turns on, and low when that pull-up is off (a floating pin on a board whose
  // buttons short to ground: the model reads it as pressed, so a firmware that forgot
  // GPPU sees every button held). A pin set as output (IODIR bit 0) reads its OLAT bit;
  // IPOL inverts an input's reading.
  constructor(address) { this.address = address; this.regs = new Uint8Array(0x16); this.regs[0] = this.regs[1] = 0xff; this.ptr = 0; this.held = 0; this.reads = 0; }
  write(bytes) {
    if (!bytes.length) return;
    this.ptr = bytes[0] % 0x16;
    for (const b of bytes.slice(1)) { this.regs[this.ptr] = b; this.ptr = (this.ptr + 1) % 0x16; }
  }
  port(k) { // k 0: A, 1: B
    const iodir = this.regs[k], gppu = this.regs[0x0c + k], ipol = this.regs[0x02 + k], olat = this.regs[0x14 + k];
    const held = (this.held >> (8 * k)) & 0xff;
    const level = gppu & ~held & 0xff; // high only through the pull-up, low while held
    return ((iodir & (level ^ ipol)) | (~iodir & olat)) & 0xff;
  }
  readByte() {
    const r = this.ptr;
    this.ptr = (this.ptr + 1) % 0x16;
    if (r === 0x12 || r === 0x13) { this.reads++; return this.port(r - 0x12); }
    return this.regs[r];
  }
}

// PN532 on I2C (NXP UM0701-02 and the PN532 user manual, I2C section): every read starts
// with a status byte (bit 0: ready); a command frame is answered by an ACK frame
// (00 00 FF 00 FF 00) once ready, then by the response frame once the command is done.
const PN532_ACK = [0x00, 0x00, 0xff, 0x00, 0xff, 0x00];
class Pn532 {
  constructor(name) { this.name = name; this.uid = null; this.out = null; this.readyAt = 0; this.queue = []; this.frames = 0; this.bad = 0; this.polls = 0; }
  write(bytes) {
    // 00 00 FF LEN LCS D4 CMD params DCS 00
    let i = 0;
    while (i < bytes.length && bytes[i] === 0x00) i++;
    if (bytes[i] !== 0xff || i < 1) { this.bad++; return; }
    const len = bytes[i + 1], lcs = bytes[i + 2];
    if (((len + lcs) & 0xff) !== 0) { this.bad++; return; }
    const body = bytes.slice(i + 3, i + 3 + len);
    const dcs = bytes[i + 3 + len];
    if (body.length !== len || ((body.reduce((a, b) => a + b, 0) + dcs) & 0xff) !== 0 || body[0] !== 0xd4) { this.bad++; return; }
    this.frames++;
    const cmd = body[1], params = body.slice(2);
    let data;
    let busyNs = 1e6; // ~1 ms of work
    if (cmd === 0x14 || cmd === 0x32) data = []; // SAMConfiguration, RFConfiguration
    else if (cmd === 0x4a) { // InListPassiveTarget(MaxTg, BrTy=0: 106 kbps type A)
      this.polls++;
      busyNs = 3e6;
      if (this.uid && params[1] === 0) {
        const u = this.uid;
        const sens = u.length === 4 ? [0x00, 0x04] : [0x00, 0x44];
        data = [0x01, 0x01, ...sens, 0x08, u.length, ...u];
      } else data = [0x00];
    } else { this.bad++; return; }
    const resp = [0xd5, cmd + 1, ...data];
    const rlen = resp.length;
    const rdcs = (0x100 - (resp.reduce((a, b) => a + b, 0) & 0xff)) & 0xff;
    this.queue = [{ frame: PN532_ACK, at: nowNs() + 200e3 },
      { frame: [0x00, 0x00, 0xff, rlen, (0x100 - rlen) & 0xff, ...resp, rdcs, 0x00], at: 0, busy: busyNs }];
  }
  ready() { return this.queue.length > 0 && nowNs() >= this.queue[0].at; }
  // One read transaction: status byte, then (when ready) the frame; the frame is consumed.
  beginRead() { this.readIdx = 0; this.reading = this.ready() ? this.queue[0].frame : null; }
  readByte() {
    const i = this.readIdx++;
    if (i === 0) return this.reading ? 0x01 : 0x00;
    if (!this.reading) return 0x00;
    return i - 1 < this.reading.length ? this.reading[i - 1] : 0x00;
  }
  endRead() {
    if (this.reading && this.readIdx > 1) {
      this.queue.shift();
      if (this.queue.length) this.queue[0].at = nowNs() + (this.queue[0].busy ?? 0);
    }
    this.reading = null;
  }
}

// MFRC522 on SPI (NXP MFRC522 datasheet rev. 3.9, 8.1.2 and 9-10), with one ISO/IEC 14443-3
// type A tag that can be laid on it. SPI mode 0, 8-bit frames, MSB first; the first byte
// of a transaction (chip select low) is the address: bit 7 read, bits 6..1 register. A read
// answers each following byte with the register's value (the byte sent names the next
// register to read); a write puts each following byte in that register. FIFODataReg pops
// and pushes the 64-byte FIFO, FIFOLevelReg reads its count (bit 7 written: flush),
// ComIrqReg clears the bits written 1 (Set1 = 0). The Transceive command sends the FIFO
// once BitFramingReg.StartSend is set (TxLastBits valid bits in the last byte) and puts
// the tag's answer in the FIFO (RxIRq) after its air time; with no answer, TimerIRq fires
// after the timer set by TMode/TPrescaler/TReload (only with TMode.TAuto: else nothing).
// Only with the antenna on (TxControlReg bits 0-1) does the tag hear anything.
// The tag (ISO/IEC 14443-3): IDLE answers REQA/WUPA, HALT only WUPA, with ATQA; READY
// answers anticollision (NVB 0x20) of its cascade level with 4 UID bytes + BCC and SELECT
// (NVB 0x70, the 5 bytes, CRC_A) with SAK + CRC_A (SAK bit 2: UID not complete); ACTIVE
// takes HLTA (with its CRC_A) and halts; any other frame sends it back to IDLE (HALT if it
// was halted), unanswered. A frame with a bad CRC_A is not answered.
function crcA(bytes) {
  let crc = 0x6363;
  for (const x of bytes) {
    let b = (x ^ (crc & 0xff)) & 0xff;
    b = (b ^ (b << 4)) & 0xff;
    crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xffff;
  }
  return crc;
}
const MFRC_VERSION = 0x92; // v2.0
class Mfrc522 {
  constructor(name, cs) {
    this.name = name; this.cs = cs; this.uid = null; this.present = true;
    this.stats = { transceives: 0, wupa: 0, answered: 0, selects: 0, halts: 0, bad_spi: 0, bad_crc: 0, resets: 0, antenna_off: 0 };
    this.softReset(); this.tagState = 'idle'; this.halted = false; this.txn = null;
  }
  softReset() {
    this.regs = new Uint8Array(64); this.fifo = []; this.pending = null;
    this.regs[0x01] = 0x20; this.regs[0x14] = 0x80; this.regs[0x37] = MFRC_VERSION;
  }
  setTag(uid) { this.uid = uid; this.tagState = 'idle'; this.halted = false; }
  // chip select low .. high: one transaction
  select() { this.txn = { addr: null, read: false }; }
  deselect() { this.txn = null; }
  byte(mosi) {
    const t = this.txn;
    if (!t) return 0xff;
    if (t.addr === null) {
      if (mosi & 0x01) this.stats.bad_spi++;
      t.read = !!(mosi & 0x80); t.addr = (mosi >> 1) & 0x3f; return 0x00;
    }
    if (t.read) { const v = this.readReg(t.addr); t.addr = (mosi >> 1) & 0x3f; return v; }
    this.writeReg(t.addr, mosi); return 0x00;
  }
  settle() { // the pending exchange's outcome, once its time has come
    const p = this.pending;
    if (!p || nowNs() < p.at) return;
    this.pending = null;
    if (p.answer) { this.fifo.push(...p.answer); this.regs[0x04] |= 0x20; this.stats.answered++; }
    else this.regs[0x04] |= 0x01; // TimerIRq
  }
  readReg(r) {
    this.settle();
    if (r === 0x09) return this.fifo.length ? this.fifo.shift() : 0x00;
    if (r === 0x0a) return this.fifo.length;
    return this.regs[r];
  }
  writeReg(r, v) {
    this.settle();
    if (r === 0x01) {
      const cmd = v & 0x0f;
      if (cmd === 0x0f) { this.stats.resets++; this.softReset(); return; }
      this.regs[0x01] = (this.regs[0x01] & 0xf0) | (v & 0x30) | cmd;
      if (cmd === 0x00) this.pending = null;
      return;
    }
    if (r === 0x04) { if (v & 0x80) this.regs[0x04] |= v & 0x7f; else this.regs[0x04] &= ~v & 0x7f; return; }
    if (r === 0x09) { if (this.fifo.length < 64) this.fifo.push(v); return; }
    if (r === 0x0a) { if (v & 0x80) this.fifo = []; return; }
    if (r === 0x37) return; // read-only
    this.regs[r] = v;
    if (r === 0x0d && (v & 0x80) && (this.regs[0x01] & 0x0f) === 0x0c) this.transceive(v & 0x07);
  }
  transceive(lastBits) {
    this.stats.transceives++;
    const frame = this.fifo; this.fifo = [];
    this.regs[0x04] |= 0x40; // TxIRq
    const antenna = (this.regs[0x14] & 0x03) === 0x03;
    if (!antenna) this.stats.antenna_off++;
    const answer = antenna && this.uid ? this.tagHears(frame, lastBits) : null;
    const bitNs = 1e9 / 105938; // 106 kbit/s
    const txNs = frame.length * 9 * bitNs;
    let at;
    if (answer) at = nowNs() + txNs + 90 * bitNs + answer.length * 9 * bitNs;
    else if (this.regs[0x2a] & 0x80) { // TAuto: the timer starts when the transmission ends
      const prescaler = ((this.regs[0x2a] & 0x0f) << 8) | this.regs[0x2b];
      const reload = (this.regs[0x2c] << 8) | this.regs[0x2d];
      at = nowNs() + txNs + (reload + 1) * (2 * prescaler + 1) * 1e9 / 13.56e6;
    } else at = Infinity; // no timer: the command runs until the firmware gives up
    this.pending = { at, answer };
  }
  tagHears(f, lastBits) {
    const uid = this.uid;
    const levels = uid.length === 4 ? [uid] : uid.length === 7 ? [[0x88, ...uid.slice(0, 3)], uid.slice(3)]
      : [[0x88, ...uid.slice(0, 3)], [0x88, ...uid.slice(3, 6)], uid.slice(6)];
    const back = () => { this.tagState = this.halted ? 'halt' : 'idle'; return null; };
    const crcOk = (n) => { const c = crcA(f.slice(0, n)); const ok = f.length === n + 2 && f[n] === (c & 0xff) && f[n + 1] === (c >> 8); if (!ok) this.stats.bad_crc++; return ok; };
    if (lastBits === 7 && f.length === 1 && (f[0] === 0x26 || f[0] === 0x52)) {
      if (f[0] === 0x52) this.stats.wupa++;
      if (this.tagState === 'idle' || (this.tagState === 'halt' && f[0] === 0x52)) {
        this.tagState = 'ready'; this.level = 0;
        return [uid.length === 4 ? 0x04 : uid.length === 7 ? 0x44 : 0x84, 0x00];
      }
      return back();
    }
    if (lastBits !== 0) return back();
    const sel = [0x93, 0x95, 0x97];
    if (this.tagState === 'ready' && f[0] === sel[this.level]) {
      const cl = levels[this.level];
      const bcc = cl[0] ^ cl[1] ^ cl[2] ^ cl[3];
      if (f.length === 2 && f[1] === 0x20) return [...cl, bcc];
      if (f[1] === 0x70 && crcOk(7) && [...cl, bcc].every((b, i) => f[2 + i] === b)) {
        this.stats.selects++;
        const last = this.level === levels.length - 1;
        const sak = last ? 0x08 : 0x04;
        if (last) this.tagState = 'active'; else this.level++;
        const c = crcA([sak]);
        return [sak, c & 0xff, c >> 8];
      }
      return back();
    }
    if (this.tagState === 'active' && f[0] === 0x50 && f[1] === 0x00 && crcOk(2)) {
      this.stats.halts++; this.tagState = 'halt'; this.halted = true; return null;
    }
    return back();
  }
}
const mfrcs = new Map(); // name -> Mfrc522
for (const [name, cs] of Object.entries(world.mfrc522 ?? {})) { const r = new Mfrc522(name, cs); r.present = !(world.absent ?? []).includes(name); mfrcs.set(name, r); }
const spiStats = { bytes: 0, no_target: 0, collisions: 0, bad_mode: 0 };
function wireSPI(spi, g) {
  const low = new Set();
  for (const r of mfrcs.values()) {
    g[r.cs].addListener((state, old) => {
      const isLow = state === GPIOPinState.Low;
      if (isLow === (old === GPIOPinState.Low)) return;
      if (isLow) { low.add(r); r.select(); } else { low.delete(r); r.deselect(); }
    });
  }
  spi.onTransmit = (v) => {
    spiStats.bytes++;
    // SPO (bit 6) and SPH (bit 7) of SSPCR0 clear: mode 0, which the MFRC522 speaks; 8 bits.
    if ((spi.control0 & 0xc0) || spi.dataBits !== 8) spiStats.bad_mode++;
    const live = [...low].filter((r) => r.present);
    if (low.size > 1) spiStats.collisions++;
    if (!live.length) { spiStats.no_target++; spi.completeTransmit(0xff); return; } // MISO pulled up
    spi.completeTransmit(live[0].byte(v));
  };
}

const muxes = new Map(); // address -> Tca9548a
for (const a of world.muxes ?? []) muxes.set(a, new Tca9548a(a));
const mcps = new Map();
for (const a of world.mcp23017 ?? []) mcps.set(a, new Mcp23017(a));
// readers: {"name": [mux address or null, port]}; a reader can be taken off and put back.
const readers = new Map();
for (const [name, where] of Object.entries(world.pn532 ?? {})) {
  const r = new Pn532(name); r.mux = where[0]; r.port = where[1]; r.present = !(world.absent ?? []).includes(name); readers.set(name, r);
}
const i2cStats = { transactions: 0, nacks: 0, collisions: 0 };

function i2cTarget(address) {
  if (muxes.has(address)) return muxes.get(address);
  if (mcps.has(address)) return mcps.get(address);
  if (address !== 0x24) return null;
  const live = [...readers.values()].filter((r) => r.present && (r.mux === null
    ? true : muxes.has(r.mux) && (muxes.get(r.mux).mask & (1 << r.port))));
  if (live.length > 1) i2cStats.collisions++;
  return live[0] ?? null;
}

function wireI2C(i2c) {
  let target = null, mode = 0, written = [];
  const finish = () => {
    if (target && mode === 0 && target.write) target.write(written);
    if (target && mode === 1 && target.endRead) target.endRead();
    target = null; written = [];
  };
  i2c.onStart = () => { finish(); i2c.completeStart(); };
  i2c.onConnect = (address, m) => {
    i2cStats.transactions++;
    target = i2cTarget(address); mode = m; written = [];
    if (!target) {
      i2cStats.nacks++;
      i2c.completeConnect(false);
      // The abort flushed the TX FIFO: on the chip TX_EMPTY is then raised (rp2040js 1.4.1
      // leaves it clear, and the SDK waits for it until its timeout: ETIMEDOUT, then EIO on
      // the next transfer).
      i2c.setInterrupts(1 << 4);
      return;
    }
    if (mode === 1 && target.beginRead) target.beginRead();
    i2c.completeConnect(true);
  };
  i2c.onWriteByte = (v) => { written.push(v); i2c.completeWrite(true); };
  i2c.onReadByte = () => { i2c.completeRead(target?.readByte ? target.readByte() : target.read()); };
  i2c.onStop = () => { finish(); i2c.completeStop(); };
}

// ---------- the machine ----------
let mcu, cdc, boots = 0, instr = 0, emuBase = 0;
const hostToPico = [];
let usbUp = false, pendingRead = null, resetPending = null, hung = false;
let savedFlash = null, savedWdt = null;
let ledFrames = 0, ledTimingFaults = 0, shiftScans = 0, statusToggles = 0;
let cdcOutTotal = 0, cdcInTotal = 0;
const flashOps = { erase: 0, program: 0 };
const nowNs = () => emuBase + (clock ? clock.nanos : 0);
let rngState = (Number(args.seed ?? Math.floor(Math.random() * 2 ** 31)) >>> 0) || 1;
const randBit = () => { rngState ^= rngState << 13; rngState >>>= 0; rngState ^= rngState >>> 17; rngState ^= rngState << 5; rngState >>>= 0; return rngState & 1; };

function loadUf2(flash, path) {
  const data = fs.readFileSync(path);
  let blocks = 0;
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const v = new DataView(data.buffer, data.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) continue;
    const addr = v.getUint32(12, true), size = v.getUint32(16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), addr - 0x10000000);
    blocks++;
  }
  if (!blocks) throw new Error(`${path}: no UF2 blocks`);
}

function boot() {
  boots++;
  const sim = new Simulator(); // only a factory: run() below is the loop
  clock = sim.clock;
  mcu = sim.rp2040;
  mcu.logger = new ConsoleLogger(args.verbose ? LogLevel.Warn : LogLevel.Error);
  mcu.loadBootrom(new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.length / 4));
  if (savedFlash) mcu.flash.set(savedFlash);
  else {
    loadUf2(mcu.flash, args.image);
    if (args.fs) mcu.flash.set(fs.readFileSync(args.fs), FS_OFFSET);
  }
  for (const pio of mcu.pio) pio.run = () => {}; // stepped from run() at its own clock
  const wdt = mcu.peripherals[0x40058];
  if (savedWdt) { wdt.reason = savedWdt.reason; wdt.scratchData.set(savedWdt.scratch); }
  wdt.onWatchdogTrigger = () => {
    // Left running, its alarm re-fires at the same instant forever.
    wdt.alarm.enable = false; wdt.timer.enable = false;
    if (!resetPending) resetPending = 'watchdog';
  };
  const rosc = mcu.peripherals[0x40060];
  rosc.readUint32 = (off) => off === 0x00 ? (0xfab << 12) | 0xaa0 : off === 0x18 ? (1 << 31) | (1 << 12)
    : off === 0x1c ? randBit() : 0;
  rosc.writeUint32 = () => {};
  usbUp = false;
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => { usbUp = true; emit({ ev: 'usb', boot: boots, t_ns: nowNs() }); };
  cdc.onSerialData = (data) => {
    process.stdout.write(Buffer.from(data));
    cdcOutTotal += data.length;
    if (args.trace) emit({ ev: 'cdc_out', t_ns: nowNs(), total: cdcOutTotal });
  };
  const answerRead = mcu.usbCtrl.onEndpointRead;
  pendingRead = null;
  mcu.usbCtrl.onEndpointRead = (ep, size) => {
    if (ep === cdc.outEndpoint && cdc.txFIFO.itemCount === 0) { pendingRead = () => answerRead(ep, size); return; }
    answerRead(ep, size);
  };
  wireBoard();
  installFlashHooks();
  mcu.core.PC = 0x10000000;
  hung = false;
  emit({ ev: 'boot', n: boots, t_ns: nowNs(), reason: boots === 1 ? 'power' : resetPending });
}

// Flash writes: the SDK erases/programs through bootrom functions (rp2040js 1.4.1 has no
// SSI write path); when the core jumps to one, do its work on the flash array and return.
let romHooks = new Map();
function installFlashHooks() {
  romHooks = new Map();
  const rd16 = (a) => mcu.readUint16(a);
  const code = (a, b) => a.charCodeAt(0) | (b.charCodeAt(0) << 8);
  const fns = {};
  for (let p = rd16(0x14); rd16(p); p += 4) fns[rd16(p)] = rd16(p + 2) & ~1;
  const ret = () => { mcu.core.PC = mcu.core.LR & ~1; };
  for (const name of ['IF', 'EX', 'FC', 'CX']) romHooks.set(fns[code(name[0], name[1])], ret);
  romHooks.set(fns[code('R', 'E')], () => {
    const [a, n] = [mcu.core.registers[0], mcu.core.registers[1]];
    mcu.flash.fill(0xff, a, a + n); flashOps.erase++; ret();
  });
  romHooks.set(fns[code('R', 'P')], () => {
    const [a, d, n] = [mcu.core.registers[0], mcu.core.registers[1], mcu.core.registers[2]];
    for (let i = 0; i < n; i++) mcu.flash[a + i] &= mcu.readUint8(d + i);
    flashOps.program++; ret();
  });
  romHooks.delete(undefined);
}

let ledFlush = () => {};
let pioNs = 0; // the emulated time of the PIO step being run (finer than the CPU loop's)
function wireBoard() {
  const g = mcu.gpio;
  g[15].setInputValue(!jumperGrounded);
  // 74HC165 chain: SH/LD low loads the inputs (QH = first bit), each CLK rise shifts.
  let index = 0, loadLow = false;
  const drive = () => g[4].setInputValue(!!(index < chainBits ? buttons[buttonAt[index]] : 0));
  g[2].addListener((state) => {
    loadLow = state === GPIOPinState.Low;
    if (loadLow) { index = 0; shiftScans++; }
    drive();
  });
  g[3].addListener((state, old) => {
    if (state === GPIOPinState.High && old !== GPIOPinState.High && !loadLow) { index++; drive(); }
  });
  drive();
  g[25].addListener((state, old) => {
    const on = state === GPIOPinState.High;
    if (on === (old === GPIOPinState.High)) return;
    statusToggles++;
    emit({ ev: 'status_led', on, t_ns: nowNs() });
  });
  wireI2C(mcu.i2c[1]);
  wireSPI(mcu.spi[0], g);
  // WS2812 on GP22: bits from the high times, frames from the latch gaps.
  let rise = -1, fall = -1, bits = [], faults = [];
  g[22].addListener((state) => {
    const t = pioNs;
    if (state === GPIOPinState.High) {
      if (fall >= 0 && bits.length) {
        const low = t - fall;
        if (low >= LATCH_NS) { flushFrame(fall); }
        else if (low > GAP_FAULT_NS) faults.push(`low gap ${low} ns after bit ${bits.length}`);
      }
      rise = t;
    } else if (state === GPIOPinState.Low && rise >= 0) {
      const high = t - rise;
      if (high >= T0H[0] && high <= T0H[1]) bits.push(0);
      else if (high >= T1H[0] && high <= T1H[1]) bits.push(1);
      else { bits.push(high > (T0H[1] + T1H[0]) / 2 ? 1 : 0); faults.push(`high ${high} ns at bit ${bits.length - 1}`); }
      rise = -1; fall = t;
    }
  });
  const flushFrame = (latchStart) => {
    const chain = [];
    for (let i = 0; i + 24 <= bits.length; i += 24) {
      const byte = (k) => bits.slice(i + 8 * k, i + 8 * k + 8).reduce((a, b) => (a << 1) | b, 0);
      const lit = {}; // the chip lights its k-th byte as colour chipOrder[k] (GRB: G, R, B)
      for (let k = 0; k < 3; k++) lit[chipOrder[k]] = byte(k);
      chain.push([lit.R, lit.G, lit.B]);
    }
    const pixels = chain.slice(); // by place on the board
    for (const [first, last] of reversedRuns) {
      for (let place = first; place <= last && place < chain.length; place++) {
        const from = first + last - place;
        if (from < chain.length) pixels[place] = chain[from];
      }
    }
    ledFrames++;
    if (faults.length) { ledTimingFaults += faults.length; emit({ ev: 'led_timing', frame: ledFrames, faults: faults.slice(0, 5), count: faults.length }); }
    emit({ ev: 'leds', frame: ledFrames, n: pixels.length, extra_bits: bits.length % 24, t_ns: latchStart + emuBase + LATCH_NS, last_edge_ns: latchStart + emuBase, pixels });
    bits = []; faults = [];
  };
  ledFlush = () => { if (bits.length && fall >= 0 && clock.nanos - fall >= LATCH_NS && rise < 0) flushFrame(fall); };
}

function advancePio(fromNs, ns) {
  const end = fromNs + ns;
  for (const pio of mcu.pio) {
    for (const sm of pio.machines) {
      if (!sm.enabled) continue;
      // A machine stalled on an empty TX FIFO waits for the CPU: skip it until words come.
      if (sm._stalled && sm.txFIFO.itemCount === 0) { sm._t = end; continue; }
      sm._stalled = false;
      const cycleNs = ((sm.clockDivInt || 65536) + sm.clockDivFrac / 256) * CYCLE_NS;
      if (sm._t === undefined) sm._t = fromNs;
      while (sm._t + cycleNs <= end) {
        const before = sm.cycles;
        pioNs = sm._t; // side-set and pin writes take effect as the instruction starts
        sm.step();
        pio.checkChangedPins();
        const used = sm.cycles - before;
        if (used <= 0) { sm._t = end; sm._stalled = true; break; }
        sm._t += used * cycleNs;
      }
    }
  }
}

function handle(c) {
  if (c.cmd === 'press' || c.cmd === 'release') {
    if (c.mcp === undefined) buttons[c.ch] = c.cmd === 'press' ? 0 : 1;
    for (const m of mcps.values()) if (c.mcp === m.address) m.held = c.cmd === 'press' ? m.held | (1 << c.bit) : m.held & ~(1 << c.bit);
    emit({ ev: 'done', id: c.id, t_ns: nowNs() });
  } else if (c.cmd === 'tag') {
    const uid = c.uid ? [...Buffer.from(c.uid, 'hex')] : null;
    if (mfrcs.has(c.reader)) mfrcs.get(c.reader).setTag(uid);
    else readers.get(c.reader).uid = uid;
    emit({ ev: 'done', id: c.id, t_ns: nowNs() });
  } else if (c.cmd === 'reader') {
    (mfrcs.get(c.reader) ?? readers.get(c.reader)).present = !!c.present;
    emit({ ev: 'done', id: c.id, t_ns: nowNs() });
  } else if (c.cmd === 'jumper') {
    jumperGrounded = !!c.grounded; mcu.gpio[15].setInputValue(!jumperGrounded);
    emit({ ev: 'done', id: c.id, t_ns: nowNs() });
  } else if (c.cmd === 'hang') { hung = true; emit({ ev: 'done', id: c.id, t_ns: nowNs() }); }
  else if (c.cmd === 'reset') { resetPending = 'reset'; emit({ ev: 'done', id: c.id, t_ns: nowNs() }); }
  else if (c.cmd === 'stats') emit({ ev: 'stats', id: c.id, ...stats() });
  else if (c.cmd === 'quit') process.exit(0);
}

const t0 = Date.now();
function stats() {
  const cpu = process.cpuUsage();
  return { boots, emu_s: nowNs() / 1e9, real_s: (Date.now() - t0) / 1000, cpu_s: (cpu.user + cpu.system) / 1e6,
    instr, usb: usbUp, cdc_in_total: cdcInTotal, cdc_out_total: cdcOutTotal, led_frames: ledFrames, led_timing_faults: ledTimingFaults, flash_ops: flashOps,
    status_toggles: statusToggles, shift_scans: shiftScans, i2c: i2cStats,
    pn532: Object.fromEntries([...readers].map(([k, r]) => [k, { frames: r.frames, bad: r.bad, polls: r.polls }])),
    mcp23017: Object.fromEntries([...mcps].map(([a, m]) => [a, { reads: m.reads, iodir: (m.regs[1] << 8) | m.regs[0], gppu: (m.regs[0x0d] << 8) | m.regs[0x0c] }])),
    spi: spiStats, mfrc522: Object.fromEntries([...mfrcs].map(([k, r]) => [k, r.stats])) };
}

process.stdin.on('data', (chunk) => { if (usbUp) for (const b of chunk) hostToPico.push(b); });
let lastTimeEv = -1e9;
function run() {
  while (pendingCmds.length) handle(pendingCmds.shift());
  const { core } = mcu;
  if (usbUp && hostToPico.length) {
    let n = 0;
    while (hostToPico.length && cdc.txFIFO.itemCount < cdc.txFIFO.size) { cdc.sendSerialByte(hostToPico.shift()); n++; }
    cdcInTotal += n;
    if (args.trace && n) emit({ ev: 'cdc_in', t_ns: nowNs(), total: cdcInTotal });
  }
  if (pendingRead && cdc.txFIFO.itemCount > 0) { const r = pendingRead; pendingRead = null; r(); }
  const pioActive = mcu.pio.some((p) => p.machines.some((m) => m.enabled));
  let pioFrom = clock.nanos; // PIO runs in slices of at least one PIO cycle, not per instruction
  for (let i = 0; i < 100000 && !resetPending; i++) {
    let ns;
    if (hung) { // the CPU spins in place (a hung loop): time passes, nothing is done
      ns = Math.max(Math.min(clock.nanosToNextAlarm, 1000000), CYCLE_NS);
    } else if (core.waiting) {
      ns = Math.min(clock.nanosToNextAlarm, 1000000);
      if (ns <= 0) ns = CYCLE_NS;
    } else {
      if (core.PC < 0x4000 && romHooks.size) { const h = romHooks.get(core.PC); if (h) { h(); clock.tick(1000); continue; } }
      ns = core.executeInstruction() * CYCLE_NS;
      instr++;
    }
    clock.tick(ns);
    if (pioActive && clock.nanos - pioFrom >= PIO_SLICE_NS) { advancePio(pioFrom, clock.nanos - pioFrom); pioFrom = clock.nanos; }
  }
  if (pioActive && clock.nanos > pioFrom) advancePio(pioFrom, clock.nanos - pioFrom);
  ledFlush();
  if (nowNs() - lastTimeEv >= 2e6) { lastTimeEv = nowNs(); emit({ ev: 't', ns: nowNs() }); }
  if (resetPending) {
    const reason = resetPending;
    savedFlash = new Uint8Array(mcu.flash);
    const w = mcu.peripherals[0x40058];
    // A reset by the RUN pin clears the watchdog's reason; the watchdog's own leaves it.
    savedWdt = reason === 'reset' ? null : { reason: w.reason, scratch: new Uint32Array(w.scratchData) };
    usbUp = false; hostToPico.length = 0;
    emit({ ev: reason === 'watchdog' ? 'watchdog' : 'reset', boot: boots, t_ns: nowNs() });
    emit({ ev: 'usb_down', boot: boots, t_ns: nowNs() });
    emuBase = nowNs(); // the host's clock stays monotonic across reboots
    clock = null;
    boot(); // reads resetPending for the reason
    lastTimeEv = -1e9;
    resetPending = null;
  }
  setImmediate(run);
}
boot();
run();
