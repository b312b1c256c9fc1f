package clickhouse

import (
	"errors"

	"github.com/ClickHouse/ch-go/proto"
	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// errClass is what the sender does with a failed insert.
type errClass int

const (
	// classRetry: the server is unreachable, slow or overloaded; retry the
	// same batch with backoff.
	classRetry errClass = iota
	// classPark: the server refuses the batch for its schema (a column or
	// table is missing, a type differs); retrying soon cannot help. The
	// batch is kept and tried again every park_interval, never written in
	// a degraded form.
	classPark
)

// parkCodes are the ClickHouse exception codes that mean the table does
// not accept the batch as it is: schema drift or a wrong configuration.
var parkCodes = map[proto.Error]bool{
	proto.ErrThereIsNoColumn:            true, // 8
	proto.ErrNotFoundColumnInBlock:      true, // 10
	proto.ErrNoSuchColumnInTable:        true, // 16
	proto.ErrUnknownIdentifier:          true, // 47
	proto.ErrTypeMismatch:               true, // 53
	proto.ErrUnknownTable:               true, // 60
	proto.ErrSyntaxError:                true, // 62
	proto.ErrCannotConvertType:          true, // 70
	proto.ErrUnknownDatabase:            true, // 81
	proto.ErrIllegalColumn:              true, // 44
	proto.ErrIncorrectNumberOfColumns:   true, // 7
	proto.ErrNumberOfColumnsDoesntMatch: true, // 20
	proto.ErrUnknownSetting:             true, // 115
	proto.ErrReadonly:                   true, // 164: the user may not write
	proto.ErrAccessDenied:               true, // 497
	proto.ErrAuthenticationFailed:       true, // 516
}

// classify sorts an insert error. Server exceptions are sorted by code:
// the codes in parkCodes park, every other code (TOO_MANY_PARTS,
// MEMORY_LIMIT_EXCEEDED, TABLE_IS_READ_ONLY, TIMEOUT_EXCEEDED, …) is
// retried. Client-side conversion errors park (the table's column type
// differs from the row's). Network errors and anything else are retried.
func classify(err error) errClass {
	var ex *ch.Exception
	if errors.As(err, &ex) {
		if parkCodes[proto.Error(ex.Code)] {
			return classPark
		}
		return classRetry
	}
	var conv *appendError
	if errors.As(err, &conv) {
		return classPark
	}
	return classRetry
}

// exceptionCode returns the server exception code in err, or 0.
func exceptionCode(err error) int32 {
	var ex *ch.Exception
	if errors.As(err, &ex) {
		return ex.Code
	}
	return 0
}

// appendError is a column the driver could not encode for the table's
// column type.
type appendError struct {
	column string
	err    error
}

func (e *appendError) Error() string { return "column " + e.column + ": " + e.err.Error() }
func (e *appendError) Unwrap() error { return e.err }
