package sdk

import "errors"

// Transient marks err as transient. The error outcome it becomes says that
// retrying the same call may succeed, as after a timeout or a busy
// resource. It returns nil when err is nil.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return &transientError{err}
}

// IsTransient reports whether err, or an error it wraps, was marked by
// [Transient].
func IsTransient(err error) bool {
	var t *transientError
	return errors.As(err, &t)
}

type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }
