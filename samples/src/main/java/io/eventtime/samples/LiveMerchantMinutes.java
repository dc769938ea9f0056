package io.eventtime.samples;

import io.eventtime.beam.EventTimeWindow;
import io.eventtime.beam.EventTimeWindowResult;
import io.eventtime.beam.KafkaRows;
import io.eventtime.beam.ProblemRows;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.Validation;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * The live sample: each merchant's orders per minute of event time (count and total amount), read
 * from a Kafka topic as they come, on the Direct runner in streaming (the read is unbounded). It
 * prints each window as a JSON line the moment the watermark (the latest event time less 10 s)
 * closes it, and each late row with its reason; it runs until stopped, or for {@code --seconds}.
 *
 * <pre>
 * scripts/live-sample.sh      # a broker on this machine, orders produced at a steady rate, this job
 * java io.eventtime.samples.LiveMerchantMinutes --bootstrapServers=127.0.0.1:9092 --topic=orders [--seconds=60]
 * </pre>
 */
public final class LiveMerchantMinutes {
  /** The sample's options: where to read, and for how long. */
  public interface Options extends PipelineOptions {
    @Description("The Kafka brokers, host:port[,host:port...]")
    @Validation.Required
    String getBootstrapServers();

    void setBootstrapServers(String servers);

    @Description("The topic of JSON orders: merchant, amount, event_time")
    @Default.String("orders")
    String getTopic();

    void setTopic(String topic);

    @Description("How long to run, in seconds; 0 runs until stopped")
    @Default.Long(0)
    long getSeconds();

    void setSeconds(long seconds);
  }

  /** The orders' fields. */
  static final Schema ORDERS = Schema.builder().addStringField("merchant").addInt64Field("amount")
      .addStringField("event_time").build();

  private LiveMerchantMinutes() {}

  /** The query: one-minute tumbling windows per merchant, 10 s of delay, count and total amount. */
  static WindowQuery query() {
    return WindowQuery.of(WindowSpec.tumbling(60_000)).withKeys("merchant").withDelay(10_000)
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"));
  }

  public static void main(String[] args) {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    PipelineResult job = start(options);
    if (options.getSeconds() > 0) {
      job.waitUntilFinish(Duration.standardSeconds(options.getSeconds()));
      try {
        job.cancel();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      System.exit(0); // the cancelled read leaves threads of the Kafka consumer that would keep the JVM up
    } else {
      job.waitUntilFinish();
    }
  }

  /** Starts the job (it returns while the job runs) printing to standard output. */
  static PipelineResult start(Options options) {
    options.as(DirectOptions.class).setBlockOnRun(false);
    Pipeline p = Pipeline.create(options);
    KafkaRows.Result orders = p.apply("ReadOrders", KafkaRows.read().withBootstrapServers(options.getBootstrapServers())
        .withTopic(options.getTopic()).withSchema(ORDERS));
    EventTimeWindowResult minutes = orders.rows().apply("MerchantMinutes",
        EventTimeWindow.of(query()).withTimeField("event_time"));
    minutes.windows()
        .apply("WindowsAsJson", MapElements.into(TypeDescriptors.strings()).via(MerchantMinutes::toJson))
        .apply("PrintWindows", ParDo.of(new Print()));
    minutes.late()
        .apply("LateAsText", MapElements.into(TypeDescriptors.strings()).via((Row l) -> "late " + l.getString(ProblemRows.REASON)))
        .apply("PrintLate", ParDo.of(new Print()));
    orders.rejected()
        .apply("RejectedAsText", MapElements.into(TypeDescriptors.strings())
            .via((Row r) -> "rejected offset " + r.getInt64("offset") + ": " + r.getString("reason")))
        .apply("PrintRejected", ParDo.of(new Print()));
    minutes.rejected()
        .apply("NoTimeAsText", MapElements.into(TypeDescriptors.strings()).via((Row r) -> "rejected " + r.getString(ProblemRows.REASON)))
        .apply("PrintNoTime", ParDo.of(new Print()));
    return p.run();
  }

  /** Prints each line to standard output as it comes. */
  static final class Print extends DoFn<String, Void> {
    @ProcessElement
    public void process(@Element String line) {
      synchronized (System.out) {
        System.out.println(line);
        System.out.flush();
      }
    }
  }
}
