package clickhouse

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Errors returned by Export. The dropped rows are already counted.
var (
	ErrQueueFull = errors.New("clickhouse exporter: queue full, evaluation dropped")
	ErrClosed    = errors.New("clickhouse exporter: shut down, evaluation dropped")
)

// Settings are the exporter's collaborators.
type Settings struct {
	// Logger receives the exporter's logs (nil: discarded).
	Logger *slog.Logger
	// Registerer registers the exporter's metrics (nil: not registered).
	Registerer prometheus.Registerer
	// Drops counts dropped rows (nil: not counted).
	Drops *telemetry.Drops
	// SidecarVersion is written into every row.
	SidecarVersion string
}

// Exporter writes evaluations to ClickHouse.
//
// Export turns an evaluation into rows of the four tables and appends them
// to in-memory batches; it never talks to the database. A batch is sealed
// at batch_rows rows or every flush_interval, then written to the spool;
// one sender per table inserts the spool's batches in order, retrying
// unreachable or overloaded servers with backoff and parking batches the
// server refuses for their schema.
//
// Delivery: a row is acknowledged once Flush (or Shutdown) has returned
// after it was exported; from then on it is in ClickHouse or in the spool.
// With a spool directory and fsync, acknowledged rows survive a crash of
// the sidecar and are inserted when it starts again. A batch that is sent
// again after an unknown outcome carries the same deduplication token
// (servers from 22.2) and its rows the same row_key, so
// ReplacingMergeTree tables read with FINAL show each row once.
type Exporter struct {
	cfg      Config
	logger   *slog.Logger
	drops    *telemetry.Drops
	m        *metrics
	rb       rowBuilder
	now      func() time.Time
	spool    *spool
	instance string // prefix of this process's deduplication tokens

	mu          sync.Mutex
	open        [numTables]*batch
	pending     []*batch // sealed, not yet spooled
	pendingRows int      // rows in open and pending batches
	sealed      uint64   // batches sealed so far
	spooled     uint64   // sealed batches handed to the spool (kept or dropped)
	progress    chan struct{}
	closed      bool
	started     bool

	kick        chan struct{}
	spoolerDone chan struct{}
	stopSenders context.CancelFunc
	senders     sync.WaitGroup

	conn    driver.Conn
	readyMu sync.Mutex
	ready   bool
	sch     schema
}

var _ exporter.Exporter = (*Exporter)(nil)

// New validates cfg and registers the exporter's metrics. The connection
// and the spool are opened by Start.
func New(cfg Config, set Settings) (*Exporter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("clickhouse exporter: %w", err)
	}
	logger := set.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	x := &Exporter{
		cfg:         cfg,
		logger:      logger,
		drops:       set.Drops,
		rb:          rowBuilder{sidecarVersion: set.SidecarVersion},
		now:         time.Now,
		instance:    hex.EncodeToString(id[:]),
		progress:    make(chan struct{}),
		kick:        make(chan struct{}, 1),
		spoolerDone: make(chan struct{}),
		sch:         schema{cfg: cfg},
	}
	x.spool = newSpool(cfg.Spool, logger, x.countDrop)
	for t := range numTables {
		x.open[t] = newBatch(t, tableDefs[t].columns, 0)
	}
	m, err := newMetrics(set.Registerer,
		func() float64 { b, _ := x.spool.stats(); return float64(b) },
		func() float64 { return float64(x.queueRows()) })
	if err != nil {
		return nil, err
	}
	x.m = m
	return x, nil
}

func (x *Exporter) countDrop(table string, rows int, reason string) {
	x.drops.Add(dropStage, reason, rows)
	x.m.rows.WithLabelValues(table, OutcomeDropped).Add(float64(rows))
}

func (x *Exporter) queueRows() int {
	x.mu.Lock()
	n := x.pendingRows
	x.mu.Unlock()
	_, r := x.spool.stats()
	return n + r
}

// Start opens the spool (replaying what an earlier run left) and starts
// the background writers. It does not wait for ClickHouse: a server that
// is down at start is retried like any other outage, and the schema is
// created when it first answers.
func (x *Exporter) Start(context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case x.closed:
		return errors.New("clickhouse exporter: start after shutdown")
	case x.started:
		return errors.New("clickhouse exporter: already started")
	}
	opts, err := ch.ParseDSN(x.cfg.Endpoint)
	if err != nil {
		return fmt.Errorf("clickhouse exporter: endpoint: %w", err)
	}
	opts.DialTimeout = x.cfg.DialTimeout
	opts.ReadTimeout = x.cfg.Timeout
	if opts.MaxOpenConns <= 0 || opts.MaxOpenConns < int(numTables)+1 {
		opts.MaxOpenConns = int(numTables) + 1
	}
	if err := x.spool.open(); err != nil {
		return fmt.Errorf("clickhouse exporter: %w", err)
	}
	conn, err := ch.Open(opts)
	if err != nil {
		return fmt.Errorf("clickhouse exporter: %w", err)
	}
	x.conn = conn
	x.started = true
	ctx, cancel := context.WithCancel(context.Background())
	x.stopSenders = cancel
	go x.runSpooler()
	for t := range numTables {
		x.senders.Add(1)
		go x.runSender(ctx, t)
	}
	x.logger.Info("clickhouse exporter started", "database", x.cfg.Database,
		"spool", x.cfg.Spool.Directory, "batch_rows", x.cfg.BatchRows, "flush_interval", x.cfg.FlushInterval)
	return nil
}

// Export appends e's rows to the open batches. It never blocks on the
// database. When the rows would exceed queue_rows, the evaluation is
// dropped, counted and ErrQueueFull returned.
func (x *Exporter) Export(_ context.Context, e *scorer.Evaluation) error {
	if e == nil {
		return nil
	}
	n := rowsOf(e)
	total := 0
	for _, v := range n {
		total += v
	}
	if total == 0 {
		return nil
	}
	now := x.now()
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		x.dropRows(n, reasonShuttingDown)
		return ErrClosed
	}
	if x.pendingRows+total > x.cfg.SendingQueue.QueueSize {
		x.mu.Unlock()
		x.dropRows(n, reasonQueueFull)
		return ErrQueueFull
	}
	x.rb.append(&x.open, e, now)
	x.pendingRows += total
	for t := range numTables {
		if x.open[t].rows >= x.cfg.BatchRows {
			x.sealLocked(t)
		}
	}
	x.mu.Unlock()
	return nil
}

func (x *Exporter) dropRows(n [numTables]int, reason string) {
	for t, v := range n {
		if v > 0 {
			x.countDrop(tableID(t).String(), v, reason)
		}
	}
}

// sealLocked moves t's open batch to the spooler.
func (x *Exporter) sealLocked(t tableID) {
	b := x.open[t]
	if b.rows == 0 {
		return
	}
	x.pending = append(x.pending, b)
	x.open[t] = newBatch(t, tableDefs[t].columns, min(b.rows, x.cfg.BatchRows))
	x.sealed++
	select {
	case x.kick <- struct{}{}:
	default:
	}
}

func (x *Exporter) sealAllLocked() {
	for t := range numTables {
		x.sealLocked(t)
	}
}

// runSpooler seals batches every flush_interval and writes sealed batches
// to the spool, in order.
func (x *Exporter) runSpooler() {
	defer close(x.spoolerDone)
	tick := time.NewTicker(x.cfg.FlushInterval)
	defer tick.Stop()
	var buf []byte
	for {
		select {
		case <-x.kick:
		case <-tick.C:
			x.mu.Lock()
			x.sealAllLocked()
			x.mu.Unlock()
		}
		for {
			x.mu.Lock()
			if len(x.pending) == 0 {
				closed := x.closed
				x.mu.Unlock()
				if closed {
					return
				}
				break
			}
			b := x.pending[0]
			x.pending[0] = nil
			x.pending = x.pending[1:]
			x.mu.Unlock()

			seq := x.spool.nextSeq()
			token := fmt.Sprintf("%s-%s-%d", x.instance, b.table, seq)
			buf = encodeBatch(buf[:0], b, token, seq)
			x.spool.push(b, seq, token, buf)

			x.mu.Lock()
			x.pendingRows -= b.rows
			x.spooled++
			close(x.progress)
			x.progress = make(chan struct{})
			x.mu.Unlock()
		}
	}
}

// Flush seals every open batch and waits until all batches sealed so far
// are in the spool (written and, with fsync, synced) or were dropped and
// counted. Rows exported before Flush returns nil are acknowledged.
func (x *Exporter) Flush(ctx context.Context) error {
	x.mu.Lock()
	if !x.started || x.closed {
		x.mu.Unlock()
		return errors.New("clickhouse exporter: flush while not running")
	}
	x.sealAllLocked()
	target := x.sealed
	for x.spooled < target {
		ch := x.progress
		x.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("clickhouse exporter: flush: %w", ctx.Err())
		}
		x.mu.Lock()
	}
	x.mu.Unlock()
	return nil
}

// Shutdown stops accepting evaluations, spools every open batch and sends
// what it can until ctx ends. With a spool directory, unsent batches stay
// there for the next start; in memory they are dropped and counted.
func (x *Exporter) Shutdown(ctx context.Context) error {
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return nil
	}
	x.closed = true
	started := x.started
	if !started {
		var n [numTables]int
		for t := range numTables {
			n[t] = x.open[t].rows
		}
		for _, b := range x.pending {
			n[b.table] += b.rows
		}
		x.pending = nil
		x.mu.Unlock()
		x.dropRows(n, "not_started")
		return nil
	}
	x.sealAllLocked()
	select {
	case x.kick <- struct{}{}:
	default:
	}
	x.mu.Unlock()
	<-x.spoolerDone // encoding and writing files only: never waits on the database

	var err error
	tick := time.NewTicker(10 * time.Millisecond)
wait:
	for !x.spool.empty() {
		select {
		case <-ctx.Done():
			err = fmt.Errorf("clickhouse exporter: shutdown: %w", ctx.Err())
			break wait
		case <-tick.C:
		}
	}
	tick.Stop()
	x.stopSenders()
	x.senders.Wait()
	if left := x.spool.drain(); len(left) > 0 {
		rows := 0
		for _, e := range left {
			rows += e.rows
			if e.path == "" {
				x.countDrop(e.table.String(), e.rows, reasonShutdown)
			}
		}
		if x.cfg.Spool.Directory != "" {
			x.logger.Warn("clickhouse exporter: unsent batches stay in the spool for the next start",
				"batches", len(left), "rows", rows)
		}
	}
	if cerr := x.conn.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("clickhouse exporter: close: %w", cerr)
	}
	return err
}
