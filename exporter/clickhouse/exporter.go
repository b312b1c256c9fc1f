package clickhouse

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Errors returned by Export. The dropped rows are already counted.
var (
	ErrQueueFull = errors.New("clickhouse exporter: queue full, evaluation dropped")
	ErrClosed    = errors.New("clickhouse exporter: shut down, evaluation dropped")
)

// Exporter writes evaluations to ClickHouse.
//
// Export turns an evaluation into rows of the four tables and appends them
// to in-memory batches; it never talks to the database. A batch is sealed
// at batch_rows rows or every flush_interval and offered to the
// sending_queue, whose consumers write it to the spool; one sender per
// table inserts the spool's batches in order, retrying unreachable or
// overloaded servers with backoff and parking batches the server refuses
// for their schema.
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

	mu      sync.Mutex // guards open, sealed and the lifecycle flags
	open    [numTables]*batch
	sealed  uint64 // seals so far
	closed  bool
	started bool

	// queue holds seals until a consumer writes them to the spool;
	// pendingRows counts the rows of open, queued and spooling batches,
	// bounded by sending_queue.queue_size.
	queue       *queue.Bounded[seal]
	pendingRows atomic.Int64
	feedMu      sync.Mutex // guards bufs and the order of spool sequence numbers
	bufs        [numTables][]byte

	progressMu sync.Mutex
	spooled    uint64        // seals handed to the spool (kept or dropped)
	progress   chan struct{} // closed and replaced when spooled grows

	stopSeal    chan struct{}
	sealDone    chan struct{}
	stopSenders context.CancelFunc
	senders     sync.WaitGroup
	// stalled counts senders waiting to try again after a failed insert
	// (server unreachable, overloaded, or refusing the schema).
	stalled atomic.Int32

	conn    driver.Conn
	readyMu sync.Mutex
	ready   bool
	sch     schema
	// described are the metrics written to the metrics table when the
	// schema is ready (DescribeMetrics).
	described []scorer.Metric
}

var (
	_ exporter.Exporter         = (*Exporter)(nil)
	_ exporter.MetricsDescriber = (*Exporter)(nil)
)

// New validates cfg and registers the exporter's metrics with
// set.Registerer; set.Version is written into every row. The connection
// and the spool are opened by Start.
func New(cfg Config, set telemetry.Settings) (*Exporter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("clickhouse exporter: %w", err)
	}
	logger := set.Log()
	var id [8]byte
	_, _ = rand.Read(id[:])
	x := &Exporter{
		cfg:      cfg,
		logger:   logger,
		drops:    set.Drops,
		rb:       rowBuilder{sidecarVersion: set.Version},
		now:      time.Now,
		instance: hex.EncodeToString(id[:]),
		progress: make(chan struct{}),
		stopSeal: make(chan struct{}),
		sealDone: make(chan struct{}),
		sch:      schema{cfg: cfg},
	}
	x.spool = newSpool(cfg.Spool, logger, x.countDrop)
	x.queue = queue.New(queue.Settings[seal]{
		Config:  cfg.SendingQueue,
		Size:    seal.rows,
		Consume: func(_ context.Context, g seal) { x.spoolSeal(g) },
		Drop: func(g seal, reason string) {
			for _, b := range g {
				x.countDrop(b.table.String(), b.rows, reason)
			}
			x.settled(g)
		},
	})
	for t := range numTables {
		x.open[t] = newBatch(t, tableDefs[t].columns, 0)
	}
	m, err := newMetrics(set.Registerer, cfg,
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
	x.m.rows.WithLabelValues(table, exporter.OutcomeDropped).Add(float64(rows))
}

func (x *Exporter) queueRows() int {
	_, r := x.spool.stats()
	return int(x.pendingRows.Load()) + r
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
	opts.MaxOpenConns = max(opts.MaxOpenConns, int(numTables)+1)
	if err := x.spool.open(); err != nil {
		return fmt.Errorf("clickhouse exporter: %w", err)
	}
	conn, err := ch.Open(opts)
	if err != nil {
		x.spool.close()
		return fmt.Errorf("clickhouse exporter: %w", err)
	}
	if err := checkProtocol(context.Background(), conn, opts, x.cfg.DialTimeout); err != nil {
		x.spool.close()
		_ = conn.Close()
		return fmt.Errorf("clickhouse exporter: %w", err)
	}
	x.conn = conn
	x.started = true
	ctx, cancel := context.WithCancel(context.Background())
	x.stopSenders = cancel
	x.queue.Start(ctx)
	go x.sealEvery()
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
// dropped, counted and ErrQueueFull returned; with ctx marked by
// queue.WithWait (a draining scorer) it first seals the open batches and
// waits, until ctx ends, for the spool to take them.
func (x *Exporter) Export(ctx context.Context, e *scorer.Evaluation) error {
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
	for {
		x.progressMu.Lock()
		progress := x.progress // taken before the check: no progress is missed
		x.progressMu.Unlock()
		x.mu.Lock()
		if x.closed {
			x.mu.Unlock()
			x.dropRows(n, reasonShuttingDown)
			return ErrClosed
		}
		if !x.cfg.SendingQueue.Enabled || int(x.pendingRows.Load())+total <= x.cfg.SendingQueue.QueueSize {
			break
		}
		if !queue.Waits(ctx) || x.pendingRows.Load() == 0 {
			x.mu.Unlock()
			x.dropRows(n, reasonQueueFull)
			return ErrQueueFull
		}
		// draining: hand the open rows to the spool and wait for room
		x.sealAllLocked()
		x.mu.Unlock()
		select {
		case <-progress:
		case <-ctx.Done():
			x.dropRows(n, reasonQueueFull)
			return ErrQueueFull
		}
	}
	x.rb.append(&x.open, e, now)
	x.pendingRows.Add(int64(total))
	for t := range numTables {
		if x.open[t].rows >= x.cfg.BatchRows {
			x.sealAllLocked()
			break
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

// seal is the batches sealed together: the rows of the same evaluations
// in every table, which the queue and the spool keep or drop together so
// that ClickHouse never holds a run's trajectory without its scores or
// the other way round.
type seal []*batch

// rows returns the rows of every batch of g.
func (g seal) rows() int {
	n := 0
	for _, b := range g {
		n += b.rows
	}
	return n
}

// sealAllLocked offers every non-empty open batch to the queue as one
// seal.
func (x *Exporter) sealAllLocked() {
	var g seal
	for t := range numTables {
		b := x.open[t]
		if b.rows == 0 {
			continue
		}
		x.open[t] = newBatch(t, tableDefs[t].columns, min(b.rows, x.cfg.BatchRows))
		g = append(g, b)
	}
	if len(g) == 0 {
		return
	}
	x.sealed++
	_ = x.queue.Offer(g) // a refused seal is counted by the queue's Drop
}

// sealEvery seals every non-empty batch each flush_interval until
// Shutdown.
func (x *Exporter) sealEvery() {
	defer close(x.sealDone)
	tick := time.NewTicker(x.cfg.FlushInterval)
	defer tick.Stop()
	for {
		select {
		case <-x.stopSeal:
			return
		case <-tick.C:
			x.mu.Lock()
			x.sealAllLocked()
			x.mu.Unlock()
		}
	}
}

// spoolSeal writes the batches of a seal to the spool, which keeps or
// drops them together. Sequence numbers follow the order batches reach
// the spool.
func (x *Exporter) spoolSeal(g seal) {
	x.feedMu.Lock()
	items := make([]spoolItem, len(g))
	for i, b := range g {
		seq := x.spool.nextSeq()
		token := fmt.Sprintf("%s-%s-%d", x.instance, b.table, seq)
		x.bufs[b.table] = encodeBatch(x.bufs[b.table][:0], b, token, seq)
		items[i] = spoolItem{b: b, seq: seq, token: token, data: x.bufs[b.table]}
	}
	x.spool.push(items)
	x.feedMu.Unlock()
	x.settled(g)
}

// settled accounts for a seal that reached the spool or was dropped: its
// rows leave pendingRows and Flush sees the progress.
func (x *Exporter) settled(g seal) {
	x.pendingRows.Add(-int64(g.rows()))
	x.progressMu.Lock()
	x.spooled++
	close(x.progress)
	x.progress = make(chan struct{})
	x.progressMu.Unlock()
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
	x.mu.Unlock()
	x.progressMu.Lock()
	for x.spooled < target {
		ch := x.progress
		x.progressMu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("clickhouse exporter: flush: %w", ctx.Err())
		}
		x.progressMu.Lock()
	}
	x.progressMu.Unlock()
	return nil
}

// Shutdown stops accepting evaluations, spools every open batch and sends
// what it can until ctx ends. With a spool directory, unsent batches stay
// there for the next start, and Shutdown stops waiting as soon as a sender
// is backing off from a failed insert (a server that is down now will not
// take the rest before the deadline); in memory they are sent until ctx
// ends, then dropped and counted. Either way the rows left are logged.
func (x *Exporter) Shutdown(ctx context.Context) error {
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return nil
	}
	x.closed = true
	if !x.started {
		var n [numTables]int
		for t := range numTables {
			n[t] = x.open[t].rows
		}
		x.mu.Unlock()
		x.dropRows(n, queue.ReasonNotStarted)
		return x.queue.Shutdown(ctx) // drops the sealed batches as not_started
	}
	x.mu.Unlock()
	close(x.stopSeal)
	<-x.sealDone
	x.mu.Lock()
	x.sealAllLocked()
	x.mu.Unlock()
	// Encoding and writing files only: this never waits on the database.
	_ = x.queue.Shutdown(context.Background())

	onDisk := x.cfg.Spool.Directory != ""
	tick := time.NewTicker(10 * time.Millisecond)
	for !x.spool.empty() && (!onDisk || x.stalled.Load() == 0) && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	tick.Stop()
	x.stopSenders()
	// A sender blocked in a call that ignores cancellation (a server that
	// accepts the connection and never answers) is not waited for past
	// the deadline: its batch stays in the spool like the others.
	sendersDone := make(chan struct{})
	go func() { x.senders.Wait(); close(sendersDone) }()
	select {
	case <-sendersDone:
	case <-ctx.Done():
	}
	var err error
	if ctx.Err() != nil {
		err = fmt.Errorf("clickhouse exporter: shutdown: %w", ctx.Err())
	}
	if left := x.spool.drain(); len(left) > 0 {
		rows := 0
		for _, e := range left {
			rows += e.rows
			if e.path == "" {
				x.countDrop(e.table.String(), e.rows, reasonShutdown)
			}
		}
		if onDisk {
			x.logger.Warn("clickhouse exporter: stopped with rows left in the spool; they are sent at the next start",
				"rows", rows, "batches", len(left), "spool", x.cfg.Spool.Directory)
		} else {
			x.logger.Error("clickhouse exporter: stopped with unsent rows in the memory spool; dropped",
				"rows", rows, "batches", len(left))
		}
	}
	x.spool.close()
	if cerr := x.conn.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("clickhouse exporter: close: %w", cerr)
	}
	return err
}
