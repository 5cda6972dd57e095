package analysis

import (
	"context"
	"sync"
)

// fairQueue holds jobs by owner (a client's address) and hands them out in
// turn: one job of each owner with jobs waiting, round robin, so that one
// owner's many jobs wait behind each other, never before another owner's
// first. It is bounded: perOwner jobs an owner, total in all.
type fairQueue[T any] struct {
	perOwner, total int

	mu     sync.Mutex
	jobs   map[string][]T
	owners []string // the owners with jobs, in the order they are served
	n      int
	wake   chan struct{} // told when a job is added
}

func newFairQueue[T any](perOwner, total int) *fairQueue[T] {
	return &fairQueue[T]{perOwner: perOwner, total: total, jobs: map[string][]T{}, wake: make(chan struct{}, 1)}
}

// push adds j to owner's jobs; false when owner has perOwner jobs waiting
// or the queue holds total.
func (q *fairQueue[T]) push(owner string, j T) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n >= q.total || len(q.jobs[owner]) >= q.perOwner {
		return false
	}
	if len(q.jobs[owner]) == 0 {
		q.owners = append(q.owners, owner)
	}
	q.jobs[owner] = append(q.jobs[owner], j)
	q.n++
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// pop waits for a job and returns the first job of the next owner in turn;
// false when done is closed first.
func (q *fairQueue[T]) pop(done <-chan struct{}) (T, bool) {
	for {
		q.mu.Lock()
		if q.n > 0 {
			owner := q.owners[0]
			q.owners = q.owners[1:]
			js := q.jobs[owner]
			j := js[0]
			var zero T
			js[0] = zero
			if js = js[1:]; len(js) > 0 {
				q.jobs[owner] = js
				q.owners = append(q.owners, owner) // its next job after the others' first
			} else {
				delete(q.jobs, owner)
			}
			q.n--
			q.mu.Unlock()
			return j, true
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-done:
			var zero T
			return zero, false
		}
	}
}

// serve runs do on each job, one at a time, in the order pop hands them
// out, until stop is done.
func (q *fairQueue[T]) serve(stop context.Context, do func(T)) {
	for {
		j, ok := q.pop(stop.Done())
		if !ok {
			return
		}
		do(j)
	}
}

// len returns the jobs waiting.
func (q *fairQueue[T]) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}
