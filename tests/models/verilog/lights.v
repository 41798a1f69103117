// lights.v - written for mutfarm's tests: a combinational decoder, one
// output per input pattern, so that every mutant is decided at cycle 0.
module lights(
    input [1:0] sel,
    input en,
    output reg [2:0] lamp
);
always @(*) begin
    if (!en)
        lamp = 3'b000;
    else if (sel == 2'd0)
        lamp = 3'b001;
    else if (sel == 2'd1)
        lamp = 3'b010;
    else
        lamp = 3'b100;
end
endmodule
