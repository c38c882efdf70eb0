// Usage-event publisher for the billing scenario, the Go twin of bench/scenarios/billing.mjs's Node
// publisher threads: it offers 20,000 events/s on a 2-core machine where a kafkajs producer in a
// worker thread offered ~11,500 beside a settling billing (issue 17).
//
// Protocol (JSON lines): one spec on stdin, then
//
//	stdout {"ready":true,...}        every event is built and the client has reached a broker
//	stdin  {"startMs":<epoch ms>}    the go: publish, paced from startMs when rate > 0
//	stdout {"count":n,"at":<ms>}     n more events acknowledged (every chunk before them too)
//	stdout {"done":true,...}         all acknowledged; cpuMs is this process's CPU since the go
//	stdout {"error":"..."}           then exit 1
//
// Events are made from the spec's template, the JSON text Node's JSON.stringify gives of the event
// with four markers in place of its per-event fields, so the value is byte for byte what the Node
// publisher sends; the key is the user id, no headers, no compression, acks from every in-sync
// replica, idempotent, Kafka's murmur2 partitioner (as libs/events' KafkaEventBus publishes).
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

type spec struct {
	Brokers  []string `json:"brokers"`
	Topic    string   `json:"topic"`
	ClientID string   `json:"clientId"`
	// Template holds the markers below; event i is user UserIDs[i % len(UserIDs)]'s.
	Template string  `json:"template"`
	UserIDs  []int64 `json:"userIds"`
	Events   int     `json:"events"`
	// Rate is events per second overall, 0 for as fast as the client can.
	Rate float64 `json:"rate"`
	// Chunk is the events released at once when paced, and the unit of progress reports.
	Chunk int `json:"chunk"`
}

const (
	markEventID   = "@@event_id@@"
	markRequestID = "@@request_id@@"
	markUserID    = "@@user_id@@"
	markCreatedAt = "@@created_at@@"
)

var out = json.NewEncoder(os.Stdout)
var outMu sync.Mutex

func emit(v any) {
	outMu.Lock()
	defer outMu.Unlock()
	_ = out.Encode(v)
}

func fail(err error) {
	emit(map[string]string{"error": err.Error()})
	os.Exit(1)
}

func epochMs(t time.Time) float64 { return float64(t.UnixMicro()) / 1000 }

func cpuMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

// uuidV7 formats a time-ordered UUID (RFC 9562 version 7) of unixMs and 10 of b's random bytes, as
// relay makes its event and request ids (uuid's v7).
func uuidV7(unixMs int64, b []byte) string {
	b[0], b[1], b[2], b[3], b[4], b[5] = byte(unixMs>>40), byte(unixMs>>32), byte(unixMs>>24),
		byte(unixMs>>16), byte(unixMs>>8), byte(unixMs)
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:16])
	return string(s[:])
}

// build makes every record before the clock starts.
func build(sp spec) ([]*kgo.Record, error) {
	for _, mark := range []string{markEventID, markRequestID, markUserID, markCreatedAt} {
		if strings.Count(sp.Template, mark) != 1 {
			return nil, fmt.Errorf("template must hold %s once", mark)
		}
	}
	replacer := func(eventID, requestID, userID, createdAt string) *strings.Replacer {
		return strings.NewReplacer(markEventID, eventID, markRequestID, requestID, markUserID, userID,
			markCreatedAt, createdAt)
	}
	now := time.Now()
	createdAt := strconv.FormatInt(now.Unix(), 10)
	unixMs := now.UnixMilli()
	random := make([]byte, 32*sp.Events)
	if _, err := rand.Read(random); err != nil {
		return nil, err
	}
	records := make([]*kgo.Record, sp.Events)
	for i := range records {
		userID := strconv.FormatInt(sp.UserIDs[i%len(sp.UserIDs)], 10)
		value := replacer(uuidV7(unixMs, random[32*i:32*i+16]), uuidV7(unixMs, random[32*i+16:32*i+32]), userID, createdAt).
			Replace(sp.Template)
		records[i] = &kgo.Record{Topic: sp.Topic, Key: []byte(userID), Value: []byte(value)}
	}
	return records, nil
}

func main() {
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		fail(fmt.Errorf("reading the spec: %w", err))
	}
	var sp spec
	if err := json.Unmarshal(line, &sp); err != nil {
		fail(fmt.Errorf("parsing the spec: %w", err))
	}
	if sp.Events < 1 || len(sp.UserIDs) == 0 || len(sp.Brokers) == 0 || sp.Topic == "" {
		fail(fmt.Errorf("the spec needs brokers, topic, userIds and events"))
	}
	if sp.Chunk < 1 {
		sp.Chunk = 1000
	}
	buildStart := time.Now()
	records, err := build(sp)
	if err != nil {
		fail(err)
	}
	client, err := kgo.NewClient(
		kgo.SeedBrokers(sp.Brokers...),
		kgo.ClientID(sp.ClientID),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		// kafkajs reads snappy only with a codec plugin, which the services do not load.
		kgo.ProducerBatchCompression(kgo.NoCompression()),
		kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)),
		kgo.MaxBufferedRecords(sp.Events+1),
		kgo.ProducerLinger(2*time.Millisecond),
	)
	if err != nil {
		fail(err)
	}
	defer client.Close()
	ctx := context.Background()
	if err := client.Ping(ctx); err != nil {
		fail(fmt.Errorf("reaching a broker: %w", err))
	}
	emit(map[string]any{"ready": true, "events": sp.Events, "buildMs": float64(time.Since(buildStart).Microseconds()) / 1000})

	line, err = in.ReadBytes('\n')
	if err != nil {
		fail(fmt.Errorf("waiting for the go: %w", err))
	}
	var goMsg struct {
		StartMs float64 `json:"startMs"`
	}
	if err := json.Unmarshal(line, &goMsg); err != nil {
		fail(fmt.Errorf("parsing the go: %w", err))
	}
	cpuAtGo := cpuMs()
	start := time.UnixMicro(int64(goMsg.StartMs * 1000))
	chunks := (sp.Events + sp.Chunk - 1) / sp.Chunk
	left := make([]int, chunks)
	for c := range left {
		left[c] = min(sp.Chunk, sp.Events-c*sp.Chunk)
	}
	// Progress is reported over the acknowledged prefix of chunks, in publication order, as the Node
	// publisher reports each batch it awaited.
	var mu sync.Mutex
	reported := 0
	var firstErr error
	var wg sync.WaitGroup
	wg.Add(sp.Events)
	acked := func(r *kgo.Record, err error) {
		defer wg.Done()
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return
		}
		c := int(r.Context.Value(chunkKey{}).(int))
		left[c]--
		count := 0
		for reported < chunks && left[reported] == 0 {
			count += min(sp.Chunk, sp.Events-reported*sp.Chunk)
			reported++
		}
		if count > 0 {
			emit(map[string]any{"count": count, "at": epochMs(time.Now())})
		}
	}
	for c := 0; c < chunks; c++ {
		if sp.Rate > 0 {
			due := start.Add(time.Duration(float64(c*sp.Chunk) / sp.Rate * float64(time.Second)))
			if wait := time.Until(due); wait > 0 {
				time.Sleep(wait)
			}
		}
		chunkCtx := context.WithValue(ctx, chunkKey{}, c)
		for i := c * sp.Chunk; i < min((c+1)*sp.Chunk, sp.Events); i++ {
			client.Produce(chunkCtx, records[i], acked)
		}
	}
	wg.Wait()
	if firstErr != nil {
		fail(firstErr)
	}
	emit(map[string]any{
		"done":      true,
		"events":    sp.Events,
		"cpuMs":     cpuMs() - cpuAtGo,
		"publishMs": float64(time.Since(start).Microseconds()) / 1000,
		"client":    "go",
	})
}

type chunkKey struct{}
