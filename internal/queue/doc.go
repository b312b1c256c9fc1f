// Package queue is the bounded queue every stage of the sidecar puts in
// front of its work: the receiver's forwarder, the scorer engine, the
// judge stage and the exporters. It is configured by the stage's
// sending_queue block, with the OpenTelemetry Collector's keys and
// meanings: queue_size bounds what is queued and in process, num_consumers
// goroutines take items off it, and with enabled: false the caller does
// the work itself.
//
// An item the queue gives up is handed to the stage's Drop function with
// a reason (ReasonQueueFull, ReasonShuttingDown, ReasonNotStarted,
// ReasonShutdownTimeout, ReasonShedOldest), so that each stage counts its
// losses in its own unit and metric.
package queue
