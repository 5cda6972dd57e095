package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestReadEvents reads streams written as the WHATWG's text/event-stream
// format defines them (the examples of its section 9.2.5, adapted): named
// and unnamed events, data over several lines, comments, CRLF line ends,
// a last event without its blank line (not dispatched).
func TestReadEvents(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []Event
	}{
		{"the server's game events", "id: 3.7\nretry: 2000\ndata: {\"ply\":3}\n\n: keep-alive\n\nid: 4.8\ndata: {\"ply\":4}\n\n",
			[]Event{{"message", "3.7", `{"ply":3}`}, {"message", "4.8", `{"ply":4}`}}},
		{"named events", "event: challenge\nid: 17\ndata: {\"id\":\"a\"}\n\nevent: game_start\ndata: {\"id\":\"b\"}\n\n",
			[]Event{{"challenge", "17", `{"id":"a"}`}, {"game_start", "", `{"id":"b"}`}}},
		{"data on two lines, CRLF", "data: YHOO\r\ndata: +2\r\n\r\n", []Event{{"message", "", "YHOO\n+2"}}},
		{"no space after the colon", "event:x\ndata:1\n\n", []Event{{"x", "", "1"}}},
		{"an event without data is not dispatched", "event: x\n\ndata: 2\n\n", []Event{{"message", "", "2"}}},
		{"unfinished last event", "data: 1\n\ndata: 2\n", []Event{{"message", "", "1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Event
			err := readEvents(strings.NewReader(tc.in), func() {}, func(ev Event) error {
				got = append(got, ev)
				return nil
			})
			if !errors.Is(err, ErrStreamEnded) {
				t.Errorf("err = %v, want ErrStreamEnded", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReadEventsTooLarge: an event's data beyond maxEvent ends the stream
// with an error instead of growing without bound.
func TestReadEventsTooLarge(t *testing.T) {
	line := "data: " + strings.Repeat("x", 1000) + "\n"
	in := strings.Repeat(line, maxEvent/1000+2) + "\n"
	err := readEvents(strings.NewReader(in), func() {}, func(Event) error { return nil })
	if err == nil || errors.Is(err, ErrStreamEnded) || !strings.Contains(err.Error(), fmt.Sprint(maxEvent)) {
		t.Errorf("err = %v, want the limit of %d bytes named", err, maxEvent)
	}
}

// TestStreamSilent: a stream that sends nothing, not even a keep-alive,
// for longer than the idle limit is taken for a lost connection (a
// connection a router dropped without a word looks like that), and
// Stream returns so that the caller opens it again.
func TestStreamSilent(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // then silence
	}))
	defer hs.Close()
	c, err := NewClient(hs.URL, "token")
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	start := time.Now()
	err = c.Stream(context.Background(), "/api/me/events", 300*time.Millisecond, func(Event) error {
		events++
		return nil
	})
	if events != 1 || err == nil || !strings.Contains(err.Error(), "nothing received for 300ms") {
		t.Errorf("%d events, err %v; want 1 event and the silence named", events, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Stream returned after %v of silence, want about 300ms", d)
	}
}
