package bot

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Event is one Server-Sent Event: its type (the "event:" field, "message"
// when absent), its id and its data.
type Event struct {
	Type string
	ID   string
	Data string
}

// maxEvent bounds one event's data: a game's state is a few kilobytes.
const maxEvent = 1 << 20

// ErrStreamEnded is returned when the server closed an event stream.
var ErrStreamEnded = errors.New("the server closed the event stream")

// readEvents reads an event stream (the WHATWG's text/event-stream format:
// fields "event", "data", "id", comments starting with ":", an event
// dispatched at a blank line) and calls f with each event. alive is called
// with every line, keep-alive comments included. It returns f's error, a
// read error, or ErrStreamEnded at the end of the stream.
func readEvents(r io.Reader, alive func(), f func(Event) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEvent)
	var ev Event
	var data strings.Builder
	for sc.Scan() {
		alive()
		line := sc.Text()
		if line == "" {
			if data.Len() > 0 {
				ev.Data = strings.TrimSuffix(data.String(), "\n")
				if ev.Type == "" {
					ev.Type = "message"
				}
				if err := f(ev); err != nil {
					return err
				}
			}
			ev, data = Event{}, strings.Builder{}
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "event":
			ev.Type = value
		case "id":
			ev.ID = value
		case "data":
			if data.Len()+len(value) > maxEvent {
				return fmt.Errorf("an event of more than %d bytes", maxEvent)
			}
			data.WriteString(value)
			data.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return ErrStreamEnded
}
